package http

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"overwatch/testclock"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// countingKeys is an account store that knows one key and counts lookups.
type countingKeys struct {
	mu      sync.Mutex
	known   overwatch.KeyHash
	lookups int
}

func (k *countingKeys) Authenticate(_ context.Context, hash overwatch.KeyHash) (*overwatch.Caller, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.lookups++
	if hash == k.known {
		return &overwatch.Caller{AccountID: 1, Plan: overwatch.PlanPro}, nil
	}
	return nil, overwatch.Errorf(overwatch.NotFound, "no such key")
}

func discardLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func guardedApp(t *testing.T, keys authenticator, budget int, now func() time.Time) *fiber.App {
	t.Helper()
	l := Limits{Store: NewMemoryRates(), Now: now}
	app := fiber.New(fiber.Config{ErrorHandler: errorHandler(discardLog(), nil)})
	app.Get("/", authenticate(keys, NewKeyGuard(l, budget, time.Minute), true), func(c *fiber.Ctx) error { return c.SendString("ok") })
	return app
}

func status(t *testing.T, app *fiber.App, key string) int {
	t.Helper()
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("X-API-Key", key)
	resp, err := app.Test(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// An unknown key is looked up once while it is remembered; a spent budget
// costs no lookup at all, until the minute ends.
func TestKeyGuardLookups(t *testing.T) {
	valid, _, hash, _ := overwatch.NewAPIKey()
	keys := &countingKeys{known: hash}
	clock := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	app := guardedApp(t, keys, 5, now)
	unknown, _, _, _ := overwatch.NewAPIKey()
	for i := 0; i < 3; i++ {
		if got := status(t, app, unknown); got != 401 {
			t.Fatalf("unknown key: %d", got)
		}
	}
	if keys.lookups != 1 {
		t.Errorf("an unknown key presented 3 times: %d lookups, want 1", keys.lookups)
	}
	status(t, app, "malformed")
	status(t, app, unknown) // the fifth failure: the budget is spent
	if got := status(t, app, unknown); got != 429 {
		t.Fatalf("sixth failure: %d", got)
	}
	before := keys.lookups
	if got := status(t, app, valid); got != 429 {
		t.Errorf("a valid key from a blocked address: %d", got)
	}
	if keys.lookups != before {
		t.Errorf("a blocked address caused %d lookups", keys.lookups-before)
	}
	clock = clock.Add(61 * time.Second)
	if got := status(t, app, valid); got != 200 {
		t.Errorf("a valid key after the minute: %d", got)
	}
	if got := status(t, app, unknown); got != 401 || keys.lookups != before+2 {
		t.Errorf("the unknown key after its memory ended: %d, %d lookups", got, keys.lookups-before)
	}
}

// The guard's memories stay bounded however many addresses and keys it
// sees.
func TestKeyGuardBounded(t *testing.T) {
	now := testclock.Now()
	m := map[int]time.Time{}
	for i := 0; i < 3*maxEntries; i++ {
		m[i] = now.Add(time.Minute)
		prune(m, now)
		if len(m) > maxEntries {
			t.Fatalf("%d entries", len(m))
		}
	}
	for i := 0; i < maxEntries; i++ {
		m[-i-1] = now.Add(-time.Second) // expired
	}
	prune(m, now)
	for k, end := range m {
		if !end.After(now) {
			t.Fatalf("expired entry %d kept", k)
		}
	}
}
