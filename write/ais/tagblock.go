package ais

// parseTagBlock reads one NMEA 4.0 tag block "\c:..,s:..,g:..*hh\" at the
// start of line into env and returns the rest of the line. Recognised
// parameters: c (unix time: seconds below 10^11, else milliseconds, see
// parseUnix), s (source station), g (sentence group "<n>-<total>-<id>");
// others (n, r, d, t, ...) and empty ones are ignored. A wrong or missing
// checksum gives parsedBadSum, a parameter that is not "<letter>:<value>"
// or a malformed c or g gives parsedMalformed: never guessed.
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
	if star < 0 || len(block) != star+3 {
		return rest, parsedBadSum
	}
	h, l := hexVal(block[star+1]), hexVal(block[star+2])
	if h < 0 || l < 0 || byte(h<<4|l) != sum {
		return rest, parsedBadSum
	}
	fields := block[:star]
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
			return rest, parsedMalformed
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
	return rest, parsedOK
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
