package overwatch

import (
	"crypto/sha256"
	"regexp"
	"strings"
	"testing"
)

func TestNewAPIKeyFormat(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	form := regexp.MustCompile(`^ow_[0-9A-Za-z]{49}$`)
	for i := 0; i < 200; i++ {
		key, prefix, hash, err := NewAPIKey()
		if err != nil {
			t.Fatal(err)
		}
		if !form.MatchString(key) {
			t.Fatalf("key %q does not match %s", key, form)
		}
		if !strings.HasPrefix(key, prefix) || len(prefix) != 11 {
			t.Fatalf("prefix %q is not the key's first 11 characters", prefix)
		}
		if hash != sha256.Sum256([]byte(key)) {
			t.Fatal("hash is not the SHA-256 of the key")
		}
		if seen[key] {
			t.Fatal("duplicate key")
		}
		seen[key] = true
		got, ok := ParseAPIKey(key)
		if !ok || got != hash {
			t.Fatalf("ParseAPIKey(%q) = %x, %v", key, got, ok)
		}
	}
}

func TestParseAPIKeyRejects(t *testing.T) {
	t.Parallel()
	key, _, _, err := NewAPIKey()
	if err != nil {
		t.Fatal(err)
	}
	flip := func(i int) string {
		b := []byte(key)
		if b[i] == 'a' {
			b[i] = 'b'
		} else {
			b[i] = 'a'
		}
		return string(b)
	}
	cases := map[string]string{
		"empty":             "",
		"no prefix":         "xx" + key[2:],
		"short":             key[:len(key)-1],
		"long":              key + "0",
		"secret typo":       flip(10),
		"checksum typo":     flip(len(key) - 1),
		"non-base62":        key[:20] + "-" + key[21:],
		"bearer-like space": key[:20] + " " + key[21:],
	}
	for name, k := range cases {
		if _, ok := ParseAPIKey(k); ok {
			t.Errorf("%s: ParseAPIKey(%q) accepted", name, k)
		}
	}
}

func TestEncodeBase62(t *testing.T) {
	t.Parallel()
	if got := encodeBase62([]byte{0}, 3); got != "000" {
		t.Errorf("0 = %q", got)
	}
	if got := encodeBase62([]byte{61}, 2); got != "0z" {
		t.Errorf("61 = %q", got)
	}
	if got := encodeBase62([]byte{62}, 2); got != "10" {
		t.Errorf("62 = %q", got)
	}
	// 2^256-1 needs exactly 43 base-62 digits.
	max := make([]byte, 32)
	for i := range max {
		max[i] = 0xff
	}
	if got := encodeBase62(max, 43); got[0] == '0' {
		t.Errorf("2^256-1 = %q, leading zero means the width is too large", got)
	}
}
