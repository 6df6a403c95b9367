package overwatch

import (
	"crypto/sha256"
	"strings"
	"testing"
)

func FuzzParseAPIKey(f *testing.F) {
	key, _, _, _ := NewAPIKey()
	for _, s := range []string{key, "", "ow_", key[:30], strings.ToUpper(key), key + key, "ow_\x00\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		hash, ok := ParseAPIKey(s)
		if !ok {
			return
		}
		if len(s) != keyLen || !strings.HasPrefix(s, KeyPrefix) || hash != sha256.Sum256([]byte(s)) {
			t.Fatalf("accepted %q", s)
		}
	})
}
