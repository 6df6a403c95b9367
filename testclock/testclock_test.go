package testclock

import (
	"sync"
	"testing"
	"time"
)

func reset() { once = sync.Once{}; offset, set, err = 0, false, nil }

func TestNowFollowsTheSetInstant(t *testing.T) {
	t.Setenv(Env, "2028-02-29T12:00:00Z")
	reset()
	defer reset()
	want := time.Date(2028, 2, 29, 12, 0, 0, 0, time.UTC)
	got := Now()
	if d := got.Sub(want); d < 0 || d > time.Second {
		t.Fatalf("Now() = %s, want %s plus a moment", got, want)
	}
	if !Set() {
		t.Fatal("Set() = false with the variable set")
	}
	if Today() != want.Truncate(24*time.Hour) {
		t.Fatalf("Today() = %s", Today())
	}
}

func TestNowIsTheRealTimeWhenUnset(t *testing.T) {
	t.Setenv(Env, "")
	reset()
	defer reset()
	if d := time.Since(Now()); d < 0 || d > time.Second {
		t.Fatalf("Now() is %s from the real time", d)
	}
	if Set() {
		t.Fatal("Set() = true with the variable unset")
	}
}

func TestMalformedInstantPanics(t *testing.T) {
	t.Setenv(Env, "saturday evening")
	reset()
	defer reset()
	defer func() {
		if recover() == nil {
			t.Fatal("Now() did not panic on a malformed instant")
		}
	}()
	Now()
}
