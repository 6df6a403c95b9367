package market

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// expectDelim reads the next token and checks it is the delimiter d.
func expectDelim(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("byte %d: %w", dec.InputOffset(), err)
	}
	if got, ok := tok.(json.Delim); !ok || got != d {
		return fmt.Errorf("byte %d: found %v, want %q", dec.InputOffset(), tok, string(d))
	}
	return nil
}

// expectEnd checks nothing but white space follows the document.
func expectEnd(dec *json.Decoder) error {
	if tok, err := dec.Token(); err == nil {
		return fmt.Errorf("byte %d: %v after the end of the document", dec.InputOffset(), tok)
	} else if !errors.Is(err, io.EOF) {
		return fmt.Errorf("byte %d: %w", dec.InputOffset(), err)
	}
	return nil
}

// str returns a JSON value as text: strings as they are, numbers and
// booleans printed, null and objects "".
func str(v any) string {
	switch t := v.(type) {
	case string:
		return strings.TrimSpace(t)
	case json.Number:
		return t.String()
	case bool:
		return strconv.FormatBool(t)
	}
	return ""
}

// num returns a JSON value (a number, or a string holding one, commas as
// thousands separators allowed) as a finite float; false when absent,
// null or empty, and an error when present but not a number.
func num(v any) (float64, bool, error) {
	s := strings.ReplaceAll(str(v), ",", "")
	if s == "" {
		if _, isObj := v.(map[string]any); isObj {
			return 0, false, fmt.Errorf("an object, not a number")
		}
		return 0, false, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false, fmt.Errorf("%q is not a number", trunc(s))
	}
	return f, true, nil
}
