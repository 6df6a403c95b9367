package write

import (
	"context"
	"io"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// fakeGate is a RefreshGate in memory: one lock, and the last run of each
// key.
type fakeGate struct {
	mu     sync.Mutex
	held   bool
	claims []string
	last   map[string]time.Time
}

func (g *fakeGate) Claim(_ context.Context, name string, spacing time.Duration) (func(context.Context) error, bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.claims = append(g.claims, name)
	if g.held || spacing != 0 {
		return nil, false, nil
	}
	g.held = true
	return func(context.Context) error {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.held = false
		return nil
	}, true, nil
}

func (g *fakeGate) TakeCooldown(_ context.Context, key string, now time.Time, cooldown time.Duration) (time.Time, bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if last, ok := g.last[key]; ok && now.Sub(last) < cooldown {
		return last.Add(cooldown), false, nil
	}
	g.last[key] = now
	return now.Add(cooldown), true, nil
}

// fakeRefresher counts its runs and checks that each holds the lock.
type fakeRefresher struct {
	t    *testing.T
	gate *fakeGate
	runs int
}

func (f *fakeRefresher) RefreshCongestion(context.Context) (any, error) {
	f.gate.mu.Lock()
	defer f.gate.mu.Unlock()
	if !f.gate.held {
		f.t.Error("a refresh ran without the lock")
	}
	f.runs++
	return map[string]any{"recomputed": []any{}}, nil
}

// One refresh at a time (409 while the lock is held elsewhere, which
// spends nothing of the account's cooldown), at most one per account per
// RefreshCooldown (429 with Retry-After until it has passed), other
// accounts unaffected, the answer's shape unchanged.
func TestRefreshCongestionLockAndCooldown(t *testing.T) {
	t.Parallel()
	gate := &fakeGate{last: map[string]time.Time{}}
	rf := &fakeRefresher{t: t, gate: gate}
	clock := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	h := RefreshCongestion(rf, gate, func() time.Time { return clock })
	app := fiber.New(fiber.Config{ErrorHandler: func(c *fiber.Ctx, err error) error {
		status := map[overwatch.Code]int{overwatch.Conflict: 409, overwatch.TooManyRequests: 429}[overwatch.ErrorCode(err)]
		if status == 0 {
			status = 500
		}
		return c.Status(status).JSON(fiber.Map{"error": err.Error()})
	}})
	var account int64
	app.Post("/v1/congestion/refresh", func(c *fiber.Ctx) error {
		c.SetUserContext(overwatch.WithCaller(c.UserContext(), &overwatch.Caller{AccountID: account, Plan: overwatch.PlanFree}))
		return c.Next()
	}, h)
	post := func(acct int64) (int, string, string) {
		t.Helper()
		account = acct
		resp, err := app.Test(httptest.NewRequest("POST", "/v1/congestion/refresh", nil))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get(fiber.HeaderRetryAfter), string(body)
	}

	if status, _, body := post(1); status != 200 || body != `{"success":true,"result":{"recomputed":[]}}` {
		t.Fatalf("first refresh: %d %s", status, body)
	}
	clock = clock.Add(time.Minute)
	if status, retry, body := post(1); status != 429 || retry != "240" || body == "" {
		t.Errorf("within the cooldown: %d Retry-After %q %s", status, retry, body)
	}
	if status, _, _ := post(2); status != 200 {
		t.Errorf("another account: %d", status)
	}
	gate.held = true // another instance refreshing
	if status, _, body := post(3); status != 409 {
		t.Errorf("while another refresh runs: %d %s", status, body)
	}
	gate.held = false
	if status, _, _ := post(3); status != 200 {
		t.Errorf("after it, the account refused meanwhile: %d", status)
	}
	clock = clock.Add(RefreshCooldown - time.Minute)
	if status, _, _ := post(1); status != 200 {
		t.Errorf("after the cooldown: %d", status)
	}
	if rf.runs != 4 || gate.held {
		t.Errorf("%d runs (want 4), lock still held: %v", rf.runs, gate.held)
	}
	for _, name := range gate.claims {
		if name != RefreshLock {
			t.Errorf("claimed %q", name)
		}
	}
}
