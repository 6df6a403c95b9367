package overwatch

import (
	"fmt"
	"strconv"
)

// IMO is an IMO ship identification number: seven digits whose last is the
// check digit of the first six (IMO Resolution A.1117(30)). It is the one
// type for a vessel's identity in every layer; stores keep it as UInt32.
// The zero IMO stands for "not known" (positions whose MMSI no static
// report has named yet).
type IMO uint32

// ErrIMO is the reason ParseIMO refuses a text: the message every API
// answer and import error gives.
var ErrIMO = fmt.Errorf("must be a 7-digit IMO number")

// ErrIMOCheckDigit is the reason ParseIMO refuses seven digits whose last is
// not the check digit of the first six: such a number names no ship.
var ErrIMOCheckDigit = fmt.Errorf("is not an IMO number (its check digit fails)")

// ParseIMO reads an IMO number written as exactly seven ASCII digits (zero
// padded) whose check digit holds. It is the one validation rule for IMO
// numbers: API parameters, watchlists, sanctions lists and static reports
// all go through it. The error is ErrIMO or ErrIMOCheckDigit.
func ParseIMO(s string) (IMO, error) {
	if len(s) != 7 {
		return 0, ErrIMO
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, ErrIMO
		}
	}
	n, _ := strconv.ParseUint(s, 10, 32)
	imo := IMO(n)
	if !imo.Valid() {
		return 0, ErrIMOCheckDigit
	}
	return imo, nil
}

// Valid reports whether n is an IMO number: seven digits (1000000 to
// 9999999) whose last is the check digit of the first six. The check is
// arithmetic only; it says nothing of whether the number was ever issued.
func (n IMO) Valid() bool {
	return n >= 1_000_000 && n <= 9_999_999 && IMOCheckDigit(uint32(n)/10) == uint32(n)%10
}

// String writes the number as seven digits, zero padded (a number of more
// digits, which no IMO has, as it is).
func (n IMO) String() string {
	if n >= 10_000_000 {
		return strconv.FormatUint(uint64(n), 10)
	}
	var b [7]byte
	v := uint32(n)
	for i := 6; i >= 0; i-- {
		b[i] = byte('0' + v%10)
		v /= 10
	}
	return string(b[:])
}

// MarshalText writes String: in JSON an IMO is the text "9321483".
func (n IMO) MarshalText() ([]byte, error) { return []byte(n.String()), nil }

// UnmarshalText reads what MarshalText writes: a number of up to ten
// decimal digits. It decodes stored values; it does not validate them
// (ParseIMO does).
func (n *IMO) UnmarshalText(b []byte) error {
	v, err := strconv.ParseUint(string(b), 10, 32)
	if err != nil || len(b) == 0 || b[0] < '0' || b[0] > '9' {
		return fmt.Errorf("imo %q: not a number", b)
	}
	*n = IMO(v)
	return nil
}

// UnmarshalJSON reads an IMO written as text or, as older files have it,
// as a JSON number; null leaves it as it is.
func (n *IMO) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		s, err := strconv.Unquote(string(b))
		if err != nil {
			return fmt.Errorf("imo %s: %w", b, err)
		}
		return n.UnmarshalText([]byte(s))
	}
	return n.UnmarshalText(b)
}

// Scan lets database drivers read a stored number into an IMO (it is
// database/sql's Scanner, written structurally to import no driver).
func (n *IMO) Scan(src any) error {
	switch v := src.(type) {
	case uint32:
		*n = IMO(v)
	case int64:
		if v < 0 || v > 1<<32-1 {
			return fmt.Errorf("imo %d out of range", v)
		}
		*n = IMO(v)
	case nil:
		*n = 0
	default:
		return fmt.Errorf("imo: cannot scan %T", src)
	}
	return nil
}

// IMOCheckDigit returns the check digit of an IMO ship identification number
// from its first six digits: the digits weighted 7, 6, 5, 4, 3 and 2 from the
// left, summed, and the last digit of the sum taken. Only the low six
// decimal digits of first6 are used.
func IMOCheckDigit(first6 uint32) uint32 {
	first6 %= 1_000_000
	var sum uint32
	for w := uint32(2); w <= 7; w++ {
		sum += first6 % 10 * w
		first6 /= 10
	}
	return sum % 10
}
