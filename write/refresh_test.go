package write

import (
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"strconv"
	"strings"
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

// fakeRefresher counts its runs, checks that each holds the lock, and
// waits for release when it is set.
type fakeRefresher struct {
	t       *testing.T
	gate    *fakeGate
	mu      sync.Mutex
	runs    int
	release chan struct{}
}

func (f *fakeRefresher) RefreshCongestion(context.Context) (any, error) {
	f.gate.mu.Lock()
	held := f.gate.held
	f.gate.mu.Unlock()
	if !held {
		f.t.Error("a refresh ran without the lock")
	}
	f.mu.Lock()
	f.runs++
	n := f.runs
	f.mu.Unlock()
	if f.release != nil {
		<-f.release
	}
	return map[string]any{"recomputed": []any{}, "run": n}, nil
}

func (f *fakeRefresher) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.runs
}

// refreshApp serves the handler behind a caller of the account the
// request's X-Account header names, and the service's error path.
func refreshApp(h fiber.Handler) *fiber.App {
	app := fiber.New(fiber.Config{ErrorHandler: func(c *fiber.Ctx, err error) error {
		status := map[overwatch.Code]int{overwatch.Conflict: 409, overwatch.TooManyRequests: 429}[overwatch.ErrorCode(err)]
		if status == 0 {
			status = 500
		}
		body := fiber.Map{"error": err.Error()}
		var e *overwatch.Error
		if errors.As(err, &e) {
			for _, f := range e.Fields {
				body[f.Key] = f.Value
			}
		}
		return c.Status(status).JSON(body)
	}})
	app.Post("/v1/congestion/refresh", func(c *fiber.Ctx) error {
		acct, _ := strconv.ParseInt(c.Get("X-Account"), 10, 64)
		c.SetUserContext(overwatch.WithCaller(c.UserContext(), &overwatch.Caller{AccountID: acct, Plan: overwatch.PlanFree}))
		return c.Next()
	}, h)
	return app
}

// post asks for a refresh as the account.
func post(t *testing.T, app *fiber.App, acct int64) (int, string, string) {
	t.Helper()
	req := httptest.NewRequest("POST", "/v1/congestion/refresh", nil)
	req.Header.Set("X-Account", strconv.FormatInt(acct, 10))
	resp, err := app.Test(req, 10_000)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get(fiber.HeaderRetryAfter), string(body)
}

// At most one refresh per account per RefreshCooldown (429 with
// Retry-After and the time it may, until it has passed), other accounts
// unaffected; a refresh another instance runs (its lock held) is waited
// for, not refused; the answer's shape unchanged.
func TestRefreshCongestionCooldownAndLock(t *testing.T) {
	t.Parallel()
	gate := &fakeGate{last: map[string]time.Time{}}
	rf := &fakeRefresher{t: t, gate: gate}
	clock := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	var clockMu sync.Mutex
	now := func() time.Time { clockMu.Lock(); defer clockMu.Unlock(); return clock }
	app := refreshApp(RefreshCongestion(rf, gate, now))

	if status, _, body := post(t, app, 1); status != 200 || body != `{"success":true,"result":{"recomputed":[],"run":1}}` {
		t.Fatalf("first refresh: %d %s", status, body)
	}
	clockMu.Lock()
	clock = clock.Add(time.Minute)
	clockMu.Unlock()
	if status, retry, body := post(t, app, 1); status != 429 || retry != "240" ||
		!strings.Contains(body, `"retry_at":"2026-03-02T12:05:00Z"`) || !strings.Contains(body, "possible at 2026-03-02T12:05:00Z (in 240 s)") {
		t.Errorf("within the cooldown: %d Retry-After %q %s", status, retry, body)
	}
	if status, _, _ := post(t, app, 2); status != 200 {
		t.Errorf("another account: %d", status)
	}
	// Another instance refreshing: the request waits for its lock.
	gate.mu.Lock()
	gate.held = true
	gate.mu.Unlock()
	go func() {
		time.Sleep(600 * time.Millisecond)
		gate.mu.Lock()
		gate.held = false
		gate.mu.Unlock()
	}()
	started := time.Now()
	if status, _, body := post(t, app, 3); status != 200 || time.Since(started) < 500*time.Millisecond {
		t.Errorf("while another instance refreshes: %d %s after %s", status, body, time.Since(started))
	}
	clockMu.Lock()
	clock = clock.Add(RefreshCooldown - time.Minute)
	clockMu.Unlock()
	if status, _, _ := post(t, app, 1); status != 200 {
		t.Errorf("after the cooldown: %d", status)
	}
	if rf.count() != 4 || gate.held {
		t.Errorf("%d runs (want 4), lock still held: %v", rf.count(), gate.held)
	}
	for _, name := range gate.claims {
		if name != RefreshLock {
			t.Errorf("claimed %q", name)
		}
	}
}

// Requests of several accounts that come while a refresh runs join it:
// one run, the same answer for each.
func TestRefreshCongestionJoins(t *testing.T) {
	t.Parallel()
	gate := &fakeGate{last: map[string]time.Time{}}
	rf := &fakeRefresher{t: t, gate: gate, release: make(chan struct{})}
	app := refreshApp(RefreshCongestion(rf, gate, time.Now))
	var wg sync.WaitGroup
	bodies := make([]string, 3)
	for i := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, _, body := post(t, app, int64(10+i))
			if status != 200 {
				t.Errorf("account %d: %d %s", 10+i, status, body)
			}
			bodies[i] = body
		}()
	}
	time.Sleep(300 * time.Millisecond) // all three wait on the one run
	close(rf.release)
	wg.Wait()
	if rf.count() != 1 || bodies[0] != bodies[1] || bodies[1] != bodies[2] {
		t.Errorf("%d runs; answers %q", rf.count(), bodies)
	}
}
