package apptest

import "encoding/json"

func MustUnmarshal(t interface {
	Helper()
	Fatalf(string, ...any)
}, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
}
