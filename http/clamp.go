package http

import (
	"bytes"
	"encoding/json"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// clampResults holds every keyed JSON answer to the plan's results per
// call (README, "Limits and errors"): the handlers clamp what they query (limitParam), and
// this clamps, once for every route, every array of the answer at any
// depth, endpoints without a limit parameter included. Answers within the
// bound, the usual case, are scanned and sent unchanged.
func clampResults() fiber.Handler {
	return func(c *fiber.Ctx) error {
		if err := c.Next(); err != nil {
			return err
		}
		resp := c.Response()
		if resp.StatusCode() >= 300 || resp.IsBodyStream() ||
			!bytes.HasPrefix(resp.Header.ContentType(), []byte(fiber.MIMEApplicationJSON)) {
			return nil
		}
		n := overwatch.CallerFrom(c.UserContext()).PlanInfo().ResultsPerCall
		if out, clamped := clampArrays(resp.Body(), n); clamped {
			resp.SetBodyRaw(out)
		}
		return nil
	}
}

// clampArrays returns body with every array cut to its first n elements,
// and whether any was cut; a body that is not JSON is left alone.
func clampArrays(body []byte, n int) ([]byte, bool) {
	if n < 1 {
		return body, false
	}
	s := arrayScan{b: body, n: n}
	end, ok := s.value(0, true, 0)
	if !ok || len(s.cuts) == 0 || len(bytes.TrimSpace(body[end:])) > 0 || !json.Valid(body) {
		return body, false // within bounds (the scan is lenient; a cut is made only in valid JSON)
	}
	out := make([]byte, 0, len(body))
	at := 0
	for _, cut := range s.cuts {
		out = append(out, body[at:cut[0]]...)
		at = cut[1]
	}
	return append(out, body[at:]...), true
}

// arrayScan walks a JSON text once, recording the byte ranges that cut
// arrays longer than n: from the end of the n-th element to the closing
// bracket. Arrays inside elements that are cut away are not recorded.
type arrayScan struct {
	b    []byte
	n    int
	cuts [][2]int
}

// maxDepth bounds the nesting the scan follows.
const maxDepth = 512

func (s *arrayScan) space(i int) int {
	for i < len(s.b) && (s.b[i] == ' ' || s.b[i] == '\t' || s.b[i] == '\n' || s.b[i] == '\r') {
		i++
	}
	return i
}

// value scans the value at i and returns the index after it.
func (s *arrayScan) value(i int, record bool, depth int) (int, bool) {
	i = s.space(i)
	if i >= len(s.b) || depth > maxDepth {
		return i, false
	}
	switch s.b[i] {
	case '"':
		return s.str(i)
	case '{':
		return s.object(i, record, depth)
	case '[':
		return s.array(i, record, depth)
	}
	j := i
	for j < len(s.b) && !delimiter(s.b[j]) {
		j++
	}
	return j, j > i
}

// delimiter reports whether c ends a number or a literal.
func delimiter(c byte) bool {
	switch c {
	case ',', ']', '}', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}

func (s *arrayScan) str(i int) (int, bool) {
	for j := i + 1; j < len(s.b); j++ {
		switch s.b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return len(s.b), false
}

func (s *arrayScan) object(i int, record bool, depth int) (int, bool) {
	i = s.space(i + 1)
	if i < len(s.b) && s.b[i] == '}' {
		return i + 1, true
	}
	for {
		i = s.space(i)
		if i >= len(s.b) || s.b[i] != '"' {
			return i, false
		}
		var ok bool
		if i, ok = s.str(i); !ok {
			return i, false
		}
		if i = s.space(i); i >= len(s.b) || s.b[i] != ':' {
			return i, false
		}
		if i, ok = s.value(i+1, record, depth+1); !ok {
			return i, false
		}
		i = s.space(i)
		switch {
		case i < len(s.b) && s.b[i] == ',':
			i++
		case i < len(s.b) && s.b[i] == '}':
			return i + 1, true
		default:
			return i, false
		}
	}
}

func (s *arrayScan) array(i int, record bool, depth int) (int, bool) {
	i = s.space(i + 1)
	if i < len(s.b) && s.b[i] == ']' {
		return i + 1, true
	}
	count, cutFrom := 0, -1
	for {
		var ok bool
		if i, ok = s.value(i, record && count < s.n, depth+1); !ok {
			return i, false
		}
		count++
		if count == s.n {
			cutFrom = i
		}
		i = s.space(i)
		switch {
		case i < len(s.b) && s.b[i] == ',':
			i++
		case i < len(s.b) && s.b[i] == ']':
			if record && count > s.n {
				s.cuts = append(s.cuts, [2]int{cutFrom, i})
			}
			return i + 1, true
		default:
			return i, false
		}
	}
}
