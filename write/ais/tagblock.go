package ais

// Outcomes of parseTagBlock besides parsedOK and parsedMalformed: the
// block's fields are well formed but its checksum is not right. The
// sentence behind it decides whether the line is kept (see Decode).
const (
	// tagSumWithoutGroup: the checksum is that of the block without its
	// "g:" parameter (a receiver that adds the group after summing).
	tagSumWithoutGroup = iota + parsedMalformed + 1
	tagSumMismatch     // any other wrong checksum, or not two hex digits
	tagSumMissing      // no "*" at all
)

// parseTagBlock reads one NMEA 4.0 tag block "\c:..,s:..,g:..*hh\" at the
// start of line into env and returns the rest of the line. Recognised
// parameters: c (unix time: seconds below 10^11, else milliseconds, see
// parseUnix), s (source station), g (sentence group "<n>-<total>-<id>", or
// "<n>G<total>:<id>" as the first NMEA 4.0 blocks wrote it); others (n, r,
// d, t, ...) and empty ones are ignored. A block that is not
// closed, a parameter that is not "<letter>:<value>" or a malformed c or g
// gives parsedMalformed: never guessed. A wrong or missing checksum gives
// tagSumWithoutGroup, tagSumMismatch or tagSumMissing, with env filled in.
func parseTagBlock(line []byte, env *envelope) ([]byte, int) {
	end := -1
	for i := 1; i < len(line); i++ {
		if line[i] == '\\' {
			end = i
			break
		}
	}
	if end < 0 {
		return line, parsedMalformed
	}
	block := line[1:end]
	rest := line[end+1:]
	star := -1
	var sum byte
	for i, c := range block {
		if c == '*' {
			star = i
			break
		}
		sum ^= c
	}
	result := parsedOK
	fields := block
	switch {
	case star < 0:
		result = tagSumMissing
	case len(block) != star+3:
		result = tagSumMismatch
		fields = block[:star]
	default:
		fields = block[:star]
		h, l := hexVal(block[star+1]), hexVal(block[star+2])
		if h < 0 || l < 0 || byte(h<<4|l) != sum {
			result = tagSumMismatch
			if h >= 0 && l >= 0 {
				result = groupSlip(fields, sum, byte(h<<4|l))
			}
		}
	}
	for len(fields) > 0 {
		i := 0
		for i < len(fields) && fields[i] != ',' {
			i++
		}
		f := fields[:i]
		if i < len(fields) {
			i++
		}
		fields = fields[i:]
		if len(f) == 0 {
			continue // ",," : nothing said
		}
		if len(f) < 2 || f[1] != ':' {
			num, total, id, ok := parseNumberedGroup(f)
			if !ok {
				return rest, parsedMalformed
			}
			env.group, env.groupNum, env.groupTotal, env.hasGroup = id, num, total, true
			continue
		}
		v := f[2:]
		switch f[0] {
		case 'c':
			t, r, ok := parseUnix(v)
			if !ok || len(r) != 0 {
				return rest, parsedMalformed
			}
			env.time, env.hasTime = t, true
		case 's':
			env.station = v
		case 'g':
			num, total, id, ok := parseGroup(v)
			if !ok {
				return rest, parsedMalformed
			}
			env.group, env.groupNum, env.groupTotal, env.hasGroup = id, num, total, true
		}
	}
	return rest, result
}

// groupSlip tells, for a block whose fields (before "*") XOR to sum but
// whose checksum is want, whether want is the checksum of the block with
// its "g:" parameter (and one comma beside it) left out: tagSumWithoutGroup,
// else tagSumMismatch.
func groupSlip(fields []byte, sum, want byte) int {
	for start := 0; start < len(fields); {
		i := start
		for i < len(fields) && fields[i] != ',' {
			i++
		}
		if f := fields[start:i]; len(f) >= 2 && f[0] == 'g' && f[1] == ':' {
			without := sum ^ xorBytes(f)
			if len(f) < len(fields) {
				without ^= ','
			}
			if without == want {
				return tagSumWithoutGroup
			}
		}
		start = i + 1
	}
	return tagSumMismatch
}

// parseNumberedGroup reads the group parameter of the first NMEA 4.0
// tag blocks, "<n>G<total>:<id>" ("\1G2:58944,s:2573225,c:1733782037*63\"),
// which the Norwegian Coastal Administration's feed still writes.
func parseNumberedGroup(f []byte) (num, total uint16, id uint32, ok bool) {
	g, colon := -1, -1
	for i, c := range f {
		switch {
		case c == 'G' && g < 0 && colon < 0:
			g = i
		case c == ':' && g >= 0 && colon < 0:
			colon = i
		case !isDigit(c):
			return 0, 0, 0, false
		}
	}
	if g < 1 || colon < g+2 || colon == len(f)-1 {
		return 0, 0, 0, false
	}
	v := make([]byte, 0, 24)
	v = append(append(append(append(v, f[:g]...), '-'), f[g+1:colon]...), '-')
	if len(v)+len(f)-colon-1 > cap(v) {
		return 0, 0, 0, false
	}
	return parseGroup(append(v, f[colon+1:]...))
}

// parseGroup reads "<n>-<total>-<id>".
func parseGroup(v []byte) (num, total uint16, id uint32, ok bool) {
	var parts [3]uint64
	k := 0
	for k < 3 {
		var n uint64
		i := 0
		for i < len(v) && isDigit(v[i]) && i < 10 {
			n = n*10 + uint64(v[i]-'0')
			i++
		}
		if i == 0 || (i < len(v) && v[i] != '-') || (k < 2 && i == len(v)) {
			return 0, 0, 0, false
		}
		parts[k] = n
		k++
		if i < len(v) {
			i++
		}
		v = v[i:]
		if k == 3 && len(v) != 0 {
			return 0, 0, 0, false
		}
	}
	if parts[0] < 1 || parts[0] > parts[1] || parts[1] > 99 || parts[2] > 1<<32-1 {
		return 0, 0, 0, false
	}
	return uint16(parts[0]), uint16(parts[1]), uint32(parts[2]), true
}
