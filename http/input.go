package http

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// checkInput refuses, with a 400 naming the parameter, a request whose
// query parameters (names and decoded values), path parameters (as sent
// and percent-decoded) or JSON body strings (keys and values) hold a NUL
// byte or are not valid UTF-8: text the stores cannot take, checked once
// here for every route rather than by each handler; a body the handler
// reads as it arrives (a streamed upload) is the handler's to judge.
// withPath is false for routes whose handlers validate their path
// parameters against fixed sets and answer with messages of their own (the
// public lookup).
func checkInput(withPath bool) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if err := badInput(c, withPath); err != nil {
			return err
		}
		return c.Next()
	}
}

func badInput(c *fiber.Ctx, withPath bool) error {
	if withPath {
		for _, name := range c.Route().Params {
			raw := c.Params(name)
			decoded, err := url.PathUnescape(raw)
			if !cleanText(raw) || err == nil && !cleanText(decoded) {
				return invalidText(name)
			}
		}
	}
	var bad error
	c.Context().QueryArgs().VisitAll(func(k, v []byte) {
		switch {
		case bad != nil:
		case !cleanBytes(k):
			bad = invalidText(string(k))
		case !cleanBytes(v):
			bad = invalidText(string(k))
		}
	})
	if bad != nil || c.Request().IsBodyStream() {
		return bad
	}
	return badJSON(c.Body())
}

// badJSON checks the strings of a body that is JSON; other bodies are the
// handler's to judge.
func badJSON(body []byte) error {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' && trimmed[0] != '[' || !json.Valid(trimmed) {
		return nil
	}
	if utf8.Valid(trimmed) && bytes.IndexByte(trimmed, 0) < 0 && !bytes.Contains(trimmed, []byte(`\u0000`)) {
		return nil // the common case: nothing to look for
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	var path []pathPart
	prev := int64(0)
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return nil // json.Valid said otherwise; the handler will refuse it
		}
		raw := trimmed[prev:dec.InputOffset()]
		prev = dec.InputOffset()
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				path = append(path, pathPart{array: t == '['})
			default:
				path = path[:len(path)-1]
				advance(path)
			}
			continue
		case string:
			inObject := len(path) > 0 && !path[len(path)-1].array
			isKey := inObject && !path[len(path)-1].haveKey
			if !cleanText(t) || !utf8.Valid(raw) {
				if isKey {
					return invalidText("body")
				}
				return invalidText(fieldName(path))
			}
			if isKey {
				path[len(path)-1].key, path[len(path)-1].haveKey = t, true
				continue
			}
		}
		advance(path)
	}
}

// pathPart is one level of the JSON walk: an object with the key whose
// value comes next (haveKey false while a key is expected), or an array with the
// index of its next element.
type pathPart struct {
	array   bool
	key     string
	haveKey bool
	index   int
}

// advance moves the innermost level past a value.
func advance(path []pathPart) {
	if len(path) == 0 {
		return
	}
	p := &path[len(path)-1]
	if p.array {
		p.index++
	} else {
		p.key, p.haveKey = "", false
	}
}

// fieldName names the value being read: name, a.b, items[2].
func fieldName(path []pathPart) string {
	var b strings.Builder
	for _, p := range path {
		if p.array {
			b.WriteString("[" + strconv.Itoa(p.index) + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p.key)
	}
	if b.Len() == 0 {
		return "body"
	}
	return b.String()
}

func invalidText(name string) error {
	if len(name) > 100 {
		name = name[:100]
	}
	name = strings.ToValidUTF8(strings.ReplaceAll(name, "\x00", ""), "")
	if name == "" {
		name = "parameter name"
	}
	return overwatch.Errorf(overwatch.Invalid, "%s must be valid UTF-8 text without NUL bytes", name).With("parameter", name)
}

func cleanText(s string) bool { return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 }

func cleanBytes(b []byte) bool { return utf8.Valid(b) && bytes.IndexByte(b, 0) < 0 }
