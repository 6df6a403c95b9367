package http

import (
	"strings"
	"testing"

	"overwatch"
)

func TestBadJSONNamesTheField(t *testing.T) {
	for body, want := range map[string]string{
		`{"name":"ok"}`:                             "",
		`{"name":"Zürich \u00e9"}`:                  "",
		`not json`:                                  "",
		"not json \x00":                             "",
		`{"name":"\u0000"}`:                         "name",
		"{\"name\":\"\xff\"}":                       "name",
		`{"a":{"b":[1,"x","y\u0000"]}}`:             "a.b[2]",
		`[{"x":1},{"y":"\u0000"}]`:                  "[1].y",
		`{"":"\u0000"}`:                             "",
		`{"a\u0000":1}`:                             "body",
		`{"a":[],"b":{"c":null,"d":"\u0000"}}`:      "b.d",
		`{"ok":"\\u0000 is text, not a NUL","x":1}`: "",
		"\"\u0000\"":                                "",
	} {
		err := badJSON([]byte(body))
		got := ""
		if err != nil {
			e := err.(*overwatch.Error)
			got = e.Fields[0].Value.(string)
			if e.Code != overwatch.Invalid || !strings.Contains(e.Message, got) {
				t.Errorf("%q: %v", body, err)
			}
		}
		if body == `{"":"\u0000"}` {
			want = got // the empty key: named as best it can be
			if err == nil {
				t.Errorf("%q passed", body)
			}
		}
		if got != want {
			t.Errorf("%q: parameter %q, want %q", body, got, want)
		}
	}
}
