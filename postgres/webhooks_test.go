package postgres_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"overwatch"
	"overwatch/jobs"
	"overwatch/postgres"
	"overwatch/write"
)

func newHook(t *testing.T, db *postgres.DB, account int64, types ...string) int64 {
	t.Helper()
	id, _, err := db.CreateWebhook(context.Background(), account,
		write.NewWebhook{URL: "https://hooks.example.com/" + t.Name(), EventTypes: types, Secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}, write.MaxWebhooks)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// Webhooks belong to their account: another account's id is NotFound for
// every change and for the delivery log; the cap holds under concurrency.
func TestWebhookStoreOwnershipAndCap(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	a, b := newAccount(t, db), newAccount(t, db)
	id := newHook(t, db, a, "dark_fleet")

	wantCode(t, "delete across accounts", db.DeleteWebhook(ctx, b, id), overwatch.NotFound)
	wantCode(t, "pause across accounts", db.PauseWebhook(ctx, b, id, true), overwatch.NotFound)
	_, err := db.Deliveries(ctx, b, id, 10)
	wantCode(t, "deliveries across accounts", err, overwatch.NotFound)
	if hooks, err := db.Webhooks(ctx, b); err != nil || len(hooks) != 0 {
		t.Errorf("b sees %v %v", hooks, err)
	}
	hooks, err := db.Webhooks(ctx, a)
	if err != nil || len(hooks) != 1 || hooks[0].ID != id || hooks[0].Paused {
		t.Fatalf("a's webhooks: %+v %v", hooks, err)
	}
	if err := db.PauseWebhook(ctx, a, id, true); err != nil {
		t.Fatal(err)
	}
	if hooks, _ := db.Webhooks(ctx, a); !hooks[0].Paused {
		t.Errorf("not paused: %+v", hooks[0])
	}
	if err := db.DeleteWebhook(ctx, a, id); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "delete twice", db.DeleteWebhook(ctx, a, id), overwatch.NotFound)

	// 25 concurrent registrations on a fresh account: exactly the cap wins.
	c := newAccount(t, db)
	var (
		wg        sync.WaitGroup
		mu        sync.Mutex
		ok, confl int
	)
	for i := range 25 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := db.CreateWebhook(ctx, c, write.NewWebhook{URL: fmt.Sprintf("https://h.example.com/%d", i),
				EventTypes: []string{"test"}, Secret: "whsec_AAAA"}, write.MaxWebhooks)
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				ok++
			} else if strings.Contains(err.Error(), "at most") {
				confl++
			} else {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if ok != write.MaxWebhooks || confl != 25-write.MaxWebhooks {
		t.Errorf("%d created, %d refused; want %d created", ok, confl, write.MaxWebhooks)
	}
}

// EnqueueEvent fans an event out to the account's active webhooks
// subscribed to its type, once per webhook and event id.
func TestWebhookEnqueueFanOutIsIdempotent(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	a, b := newAccount(t, db), newAccount(t, db)
	dark := newHook(t, db, a, "dark_fleet")
	both := newHook(t, db, a, "dark_fleet", "sanctions_match")
	paused := newHook(t, db, a, "dark_fleet")
	other := newHook(t, db, b, "dark_fleet")
	if err := db.PauseWebhook(ctx, a, paused, true); err != nil {
		t.Fatal(err)
	}
	payload := []byte(`{"type":"dark_fleet"}`)
	for i, want := range []int{2, 0, 0} { // the same event id again: nothing
		if n, err := db.EnqueueEvent(ctx, a, "dark_fleet", "evt_fan", payload); err != nil || n != want {
			t.Errorf("enqueue %d: %d %v, want %d", i+1, n, err, want)
		}
	}
	// Event ids are unique across types: the same id of another type is
	// the same event, already queued.
	if n, err := db.EnqueueEvent(ctx, a, "sanctions_match", "evt_fan", payload); err != nil || n != 0 {
		t.Errorf("same id, other type: %d %v", n, err)
	}
	if n, err := db.EnqueueEvent(ctx, a, "sanctions_match", "evt_sanction", payload); err != nil || n != 1 {
		t.Errorf("sanctions: %d %v", n, err)
	}
	if n, err := db.EnqueueEvent(ctx, a, "river_level", "evt_river", payload); err != nil || n != 0 {
		t.Errorf("unsubscribed type: %d %v", n, err)
	}
	count := func(account, hook int64) int {
		d, err := db.Deliveries(ctx, account, hook, 100)
		if err != nil {
			t.Fatal(err)
		}
		return len(d)
	}
	if count(a, dark) != 1 || count(a, both) != 2 || count(a, paused) != 0 || count(b, other) != 0 {
		t.Errorf("deliveries: dark %d, both %d, paused %d, other account %d", count(a, dark), count(a, both), count(a, paused), count(b, other))
	}
}

// ClaimDeliveries hands each due delivery to one claimer (SKIP LOCKED),
// holds it for the lease, and ReleaseClaims makes it due again at once.
func TestWebhookClaimIsExclusive(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	a := newAccount(t, db)
	hook := newHook(t, db, a, "test")
	for i := range 60 {
		if _, err := db.EnqueueEvent(ctx, a, "test", fmt.Sprintf("evt_claim_%d", i), []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now().Add(time.Second)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		seen = map[int64]int{}
	)
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				got, err := db.ClaimDeliveries(ctx, now, time.Minute, 7)
				if err != nil {
					t.Error(err)
					return
				}
				if len(got) == 0 {
					return
				}
				mu.Lock()
				for _, d := range got {
					if d.WebhookID == hook {
						seen[d.ID]++
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(seen) != 60 {
		t.Fatalf("claimed %d of 60", len(seen))
	}
	ids := make([]int64, 0, len(seen))
	for id, n := range seen {
		if n != 1 {
			t.Errorf("delivery %d claimed %d times", id, n)
		}
		ids = append(ids, id)
	}
	mine := func(at time.Time) int { // claimed of this test's webhook
		got, err := db.ClaimDeliveries(ctx, at, time.Minute, 1000)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, d := range got {
			if d.WebhookID == hook {
				n++
			}
		}
		return n
	}
	if n := mine(now.Add(30 * time.Second)); n != 0 {
		t.Errorf("claimed again within the lease: %d", n)
	}
	if err := db.ReleaseClaims(ctx, ids[:10], now.Add(10*time.Second)); err != nil {
		t.Fatal(err)
	}
	if n := mine(now.Add(10 * time.Second)); n != 10 { // leased again until now+70 s
		t.Errorf("released 10, claimed %d", n)
	}
	if n := mine(now.Add(61 * time.Second)); n != 50 {
		t.Errorf("after the lease: %d due, want 50", n)
	}
}

// RecordAttempt: a failure schedules the next attempt, a success ends the
// delivery and resets the failure count, WebhookDisableAfter dead
// deliveries in a row disable the webhook (nothing more is queued or
// claimed for it) until it is resumed.
func TestWebhookRecordAttempts(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	a := newAccount(t, db)
	hook := newHook(t, db, a, "test")
	now := time.Now().Add(time.Second).Truncate(time.Millisecond)
	claimOne := func(at time.Time) jobs.Delivery {
		t.Helper()
		got, err := db.ClaimDeliveries(ctx, at, time.Minute, 100)
		for _, d := range got {
			if d.WebhookID == hook {
				return d
			}
		}
		t.Fatalf("nothing due at %v: %v %v", at, got, err)
		return jobs.Delivery{}
	}
	if _, err := db.EnqueueEvent(ctx, a, "test", "evt_rec", []byte(`{"n":1}`)); err != nil {
		t.Fatal(err)
	}
	d := claimOne(now)
	if d.Attempts != 0 || d.URL == "" || !strings.HasPrefix(d.Secret, "whsec_") || string(d.Payload) != `{"n":1}` || d.AccountID != a {
		t.Fatalf("claimed %+v", d)
	}
	next := now.Add(5 * time.Second)
	if err := db.RecordAttempt(ctx, d, jobs.AttemptResult{Status: 500, Err: "answered HTTP 500", Duration: 12 * time.Millisecond, Next: next}, now); err != nil {
		t.Fatal(err)
	}
	log, err := db.Deliveries(ctx, a, hook, 10)
	if err != nil || len(log) != 1 || log[0].Status != "pending" || log[0].Attempts != 1 || !log[0].NextAttemptAt.Equal(next) {
		t.Fatalf("after a failure: %+v %v", log, err)
	}
	d = claimOne(next)
	if d.Attempts != 1 {
		t.Errorf("second claim: attempts %d", d.Attempts)
	}
	if err := db.RecordAttempt(ctx, d, jobs.AttemptResult{Status: 204, Duration: time.Millisecond}, next); err != nil {
		t.Fatal(err)
	}
	log, _ = db.Deliveries(ctx, a, hook, 10)
	if log[0].Status != "delivered" || log[0].Attempts != 2 || log[0].DeliveredAt == nil ||
		!strings.Contains(log[0].AttemptsJSON, `"status_code" : 500`) && !strings.Contains(log[0].AttemptsJSON, `"status_code":500`) {
		t.Errorf("delivered: %+v", log[0])
	}

	// Dead deliveries in a row disable the webhook.
	for i := range jobs.WebhookDisableAfter {
		if n, err := db.EnqueueEvent(ctx, a, "test", fmt.Sprintf("evt_dead_%d", i), []byte(`{}`)); err != nil || n != 1 {
			t.Fatalf("enqueue dead %d: %d %v", i, n, err)
		}
		d := claimOne(now.Add(time.Hour))
		if err := db.RecordAttempt(ctx, d, jobs.AttemptResult{Err: "connection refused", Dead: true}, now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	hooks, _ := db.Webhooks(ctx, a)
	if hooks[0].DisabledAt == nil || hooks[0].ConsecutiveFailures != jobs.WebhookDisableAfter || !strings.Contains(hooks[0].DisabledReason, "connection refused") {
		t.Fatalf("not disabled: %+v", hooks[0])
	}
	if n, _ := db.EnqueueEvent(ctx, a, "test", "evt_while_disabled", []byte(`{}`)); n != 0 {
		t.Errorf("queued for a disabled webhook: %d", n)
	}
	if err := db.PauseWebhook(ctx, a, hook, false); err != nil {
		t.Fatal(err)
	}
	hooks, _ = db.Webhooks(ctx, a)
	if hooks[0].DisabledAt != nil || hooks[0].ConsecutiveFailures != 0 || hooks[0].DisabledReason != "" {
		t.Errorf("resumed: %+v", hooks[0])
	}
	if n, _ := db.EnqueueEvent(ctx, a, "test", "evt_after_resume", []byte(`{}`)); n != 1 {
		t.Errorf("queued after resume: %d", n)
	}
}

// An account moved to a plan without webhooks keeps them, listed, but
// nothing new is queued (neither an event nor an alert) and its queued
// deliveries wait; moved back to Pro, they are claimed again.
func TestWebhookDeliveriesWaitForThePlan(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	a := newAccount(t, db)
	hook := newHook(t, db, a, "test", jobs.AlertSanctions)
	setPlan := func(p overwatch.Plan) {
		t.Helper()
		if err := db.Exec(ctx, `UPDATE accounts SET plan = $2 WHERE id = $1`, a, string(p)); err != nil {
			t.Fatal(err)
		}
	}
	claimed := func(at time.Time) (ids []int64) {
		t.Helper()
		got, err := db.ClaimDeliveries(ctx, at, time.Minute, 1000)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range got {
			if d.WebhookID == hook {
				ids = append(ids, d.ID)
			}
		}
		return ids
	}
	if n, err := db.EnqueueEvent(ctx, a, "test", "evt_before_downgrade", []byte(`{}`)); err != nil || n != 1 {
		t.Fatalf("queued on Pro: %d %v", n, err)
	}
	now := time.Now().Add(time.Second)
	for _, p := range []overwatch.Plan{overwatch.PlanStarter, overwatch.PlanFree} {
		setPlan(p)
		if n, err := db.EnqueueEvent(ctx, a, "test", "evt_on_"+string(p), []byte(`{}`)); err != nil || n != 0 {
			t.Errorf("queued on %s: %d %v", p, n, err)
		}
		if _, err := db.RaiseAlerts(ctx, []jobs.Alert{{AccountID: a, Type: jobs.AlertSanctions, Severity: jobs.SeverityWarning,
			Title: "t", Message: "m", EventKey: "plan-pause/" + string(p) + "/" + t.Name(), EventAt: now}}); err != nil {
			t.Fatal(err)
		}
		if ids := claimed(now); len(ids) != 0 {
			t.Errorf("claimed on %s: %v", p, ids)
		}
		if hooks, err := db.Webhooks(ctx, a); err != nil || len(hooks) != 1 {
			t.Errorf("listed on %s: %+v %v", p, hooks, err)
		}
	}
	setPlan(overwatch.PlanSupplyChainRisk)
	if ids := claimed(now); len(ids) != 1 {
		t.Errorf("claimed after the upgrade: %v, want the delivery queued before the downgrade", ids)
	}
	if log, _ := db.Deliveries(ctx, a, hook, 10); len(log) != 1 || log[0].EventID != "evt_before_downgrade" {
		t.Errorf("deliveries: %+v", log)
	}
}

// An attempt given twice (a worker trying its record again after a commit
// whose answer was lost) is recorded once: the delivery's attempts and its
// webhook's failures count it once.
func TestWebhookRecordAttemptOnce(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	a := newAccount(t, db)
	hook := newHook(t, db, a, "test")
	now := time.Now().Add(time.Second).Truncate(time.Millisecond)
	if _, err := db.EnqueueEvent(ctx, a, "test", "evt_once", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	got, err := db.ClaimDeliveries(ctx, now, time.Minute, 100)
	var d jobs.Delivery
	for _, g := range got {
		if g.WebhookID == hook {
			d = g
		}
	}
	if err != nil || d.ID == 0 {
		t.Fatalf("claimed %v %v", got, err)
	}
	dead := jobs.AttemptResult{Err: "connection refused", Dead: true}
	for range 2 {
		if err := db.RecordAttempt(ctx, d, dead, now); err != nil {
			t.Fatal(err)
		}
	}
	log, err := db.Deliveries(ctx, a, hook, 10)
	if err != nil || len(log) != 1 || log[0].Status != "dead" || log[0].Attempts != 1 {
		t.Errorf("after the same attempt twice: %+v %v", log, err)
	}
	hooks, _ := db.Webhooks(ctx, a)
	if len(hooks) != 1 || hooks[0].ConsecutiveFailures != 1 {
		t.Errorf("webhook failures %+v, want 1", hooks)
	}
}
