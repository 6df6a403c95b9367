package sar

import (
	"testing"
	"time"
)

// A Retry-After in seconds or as a date, bounded to an hour; a page link
// is followed on the catalogue's own host only.
func TestRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for v, want := range map[string]time.Duration{"": time.Minute, "30": 30 * time.Second, "x": time.Minute, "99999": time.Hour,
		"Thu, 01 Jan 2026 00:02:00 GMT": 2 * time.Minute} {
		if got := retryAfter(v, now); got != want {
			t.Errorf("%q: %v", v, got)
		}
	}
	if sameHost("https://a.example/x", "https://b.example/y") != "" || sameHost("https://a.example/x", "https://a.example/y?s=2") == "" {
		t.Error("sameHost")
	}
}
