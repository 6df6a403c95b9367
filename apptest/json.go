package apptest

import "encoding/json"

// MustUnmarshal decodes the JSON b into v or fails the test.
func MustUnmarshal(t interface {
	Helper()
	Fatalf(string, ...any)
}, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
}
