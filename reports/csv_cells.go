package reports

import "time"

// Cell types of CSV row structs (StructCSV, WriteStructs): numbers written
// with a set number of decimals (Number, so never an exponent, and numeric
// cells, exempt from the formula protection), and times in RFC 3339 UTC.
// A nil pointer to any of them is an empty cell: a value not known.
type (
	// Decimals0 is a number written with no decimals.
	Decimals0 float64
	// Decimals1 is a number written with one decimal.
	Decimals1 float64
	// Decimals2 is a number written with two decimals.
	Decimals2 float64
	// Decimals3 is a number written with three decimals.
	Decimals3 float64
	// Timestamp is a time written in RFC 3339 UTC to the second; the zero
	// time is an empty cell.
	Timestamp time.Time
)

// MarshalCSV writes the number with no decimals.
func (v Decimals0) MarshalCSV() (string, error) { return Number(float64(v), 0), nil }

// MarshalCSV writes the number with one decimal.
func (v Decimals1) MarshalCSV() (string, error) { return Number(float64(v), 1), nil }

// MarshalCSV writes the number with two decimals.
func (v Decimals2) MarshalCSV() (string, error) { return Number(float64(v), 2), nil }

// MarshalCSV writes the number with three decimals.
func (v Decimals3) MarshalCSV() (string, error) { return Number(float64(v), 3), nil }

// MarshalCSV writes the time in RFC 3339 UTC, or "" for the zero time.
func (t Timestamp) MarshalCSV() (string, error) {
	if time.Time(t).IsZero() {
		return "", nil
	}
	return time.Time(t).UTC().Format(time.RFC3339), nil
}
