package history

// Parsing of the archives' time stamps into unix seconds (UTC, the
// fraction of a second dropped: reports are kept to the second), without
// allocating.

// Years outside [minYear, maxYear] are bad times: AIS did not exist
// before, and later ones are corrupt.
const (
	minYear = 1990
	maxYear = 2099
)

// daysFromCivil returns the days since 1970-01-01 of a proleptic
// Gregorian date (Howard Hinnant's algorithm).
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

// daysIn returns the number of days of a month.
func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// unixOf checks a date and time and returns its unix seconds.
func unixOf(y, mo, d, h, mi, s int) (int64, bool) {
	if y < minYear || y > maxYear || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) ||
		h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59 {
		return 0, false
	}
	return daysFromCivil(y, mo, d)*86400 + int64(h*3600+mi*60+s), true
}

// num reads n ASCII digits at b[i:].
func num(b []byte, i, n int) (int, bool) {
	if i+n > len(b) {
		return 0, false
	}
	v := 0
	for _, c := range b[i : i+n] {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// parseISO reads "YYYY-MM-DD[T ]hh:mm:ss[.fraction][Z|±hh:mm|±hhmm|±hh]"
// (any number of fractional digits; no zone is UTC): MarineCadastre,
// BarentsWatch's msgtime and both gpsdio forms.
func parseISO(b []byte) (int64, bool) {
	if len(b) < 19 || b[4] != '-' || b[7] != '-' || (b[10] != 'T' && b[10] != ' ' && b[10] != 't') ||
		b[13] != ':' || b[16] != ':' {
		return 0, false
	}
	y, ok1 := num(b, 0, 4)
	mo, ok2 := num(b, 5, 2)
	d, ok3 := num(b, 8, 2)
	h, ok4 := num(b, 11, 2)
	mi, ok5 := num(b, 14, 2)
	s, ok6 := num(b, 17, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) {
		return 0, false
	}
	t, ok := unixOf(y, mo, d, h, mi, s)
	if !ok {
		return 0, false
	}
	rest := b[19:]
	if len(rest) > 0 && rest[0] == '.' {
		i := 1
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 1 {
			return 0, false
		}
		rest = rest[i:]
	}
	switch {
	case len(rest) == 0:
		return t, true
	case len(rest) == 1 && (rest[0] == 'Z' || rest[0] == 'z'):
		return t, true
	case rest[0] == '+' || rest[0] == '-':
		oh, ok := num(rest, 1, 2)
		if !ok {
			return 0, false
		}
		om := 0
		switch {
		case len(rest) == 3:
		case len(rest) == 6 && rest[3] == ':':
			om, ok = num(rest, 4, 2)
		case len(rest) == 5:
			om, ok = num(rest, 3, 2)
		default:
			ok = false
		}
		if !ok || oh > 14 || om > 59 {
			return 0, false
		}
		off := int64(oh*3600 + om*60)
		if rest[0] == '+' {
			return t - off, true
		}
		return t + off, true
	}
	return 0, false
}

// parseDMY reads DMA's "DD/MM/YYYY hh:mm:ss".
func parseDMY(b []byte) (int64, bool) {
	if len(b) != 19 || b[2] != '/' || b[5] != '/' || b[10] != ' ' || b[13] != ':' || b[16] != ':' {
		return 0, false
	}
	d, ok1 := num(b, 0, 2)
	mo, ok2 := num(b, 3, 2)
	y, ok3 := num(b, 6, 4)
	h, ok4 := num(b, 11, 2)
	mi, ok5 := num(b, 14, 2)
	s, ok6 := num(b, 17, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) {
		return 0, false
	}
	return unixOf(y, mo, d, h, mi, s)
}
