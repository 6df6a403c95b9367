package e2e

import (
	"context"
	"encoding/json"
	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/testclock"
	"overwatch/write"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// refreshAnswer is the body of POST /v1/congestion/refresh.
type refreshAnswer struct {
	Success bool `json:"success"`
	Result  struct {
		Recomputed []struct {
			Job    string    `json:"job"`
			From   time.Time `json:"from"`
			Rows   int       `json:"rows"`
			TookMS int64     `json:"took_ms"`
			Reused bool      `json:"reused"`
		} `json:"recomputed"`
	} `json:"result"`
}

// POST /v1/congestion/refresh through the real server, on a simulated
// fleet derived as the schedule derives it: two accounts asking at once
// while new positions wait both get 200 with the same result, one
// incremental run (the trailing days, as the scheduled run: its time is
// logged beside the full derivation's); asked again with nothing new, the
// refresh reuses the last runs at the cost of a check; the same account
// within the cooldown gets 429 with Retry-After and the time it may; a
// refresh another instance holds is waited for, not refused.
func TestCongestionRefreshJoinsAndIsIncremental(t *testing.T) {
	t.Parallel() // its own databases
	r := simulateRecent(t, "refresh_e2e", 5, 100, 12)
	// The change log counts whole minutes, and a derivation started in the
	// minute of a write takes that write as new: the positions are moved a
	// minute back, as if the derivations started a minute after they were
	// stored (as they would an hour on).
	ageChangeLog(t, r.ChURL, time.Minute)
	var out apptest.SyncWriter
	began := time.Now()
	r.Command(t, &out, "jobs", "--job", "port_calls")
	r.Command(t, &out, "jobs", "--job", "congestion")
	full := time.Since(began)
	began = time.Now()
	r.Command(t, &out, "jobs", "--job", "port_calls")
	r.Command(t, &out, "jobs", "--job", "congestion")
	scheduled := time.Since(began)
	t.Logf("full derivation %s, a scheduled (incremental) run %s:\n%s", full.Round(time.Millisecond), scheduled.Round(time.Millisecond), out.String())

	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": r.ChURL, "DATABASE_URL": r.PgURL})
	key := func(plan overwatch.Plan) string {
		k, _ := s.NewKey(t, apptest.UniqueEmail(t), plan)
		return k
	}
	refresh := func(k string) (apptest.Response, refreshAnswer) {
		t.Helper()
		resp := s.Do(t, apptest.Request{Method: "POST", Path: "/v1/congestion/refresh", IP: apptest.FreshIP(), Key: k})
		var a refreshAnswer
		if resp.StatusCode == 200 {
			apptest.MustUnmarshal(t, resp.Body, &a)
		}
		return resp, a
	}
	// New positions stored since the derivations ran (as the ingest
	// records them, under the real minute they were written, like every
	// stamp of when something was stored or computed).
	s.Fx.Insert(t, "position_days", []string{"ingested_at", "day", "rows"}, []any{time.Now().UTC(), testclock.Today(), uint64(1)})

	free, pro := key(overwatch.PlanFree), key(overwatch.PlanPro)
	var wg sync.WaitGroup
	answers := make([]apptest.Response, 2)
	began = time.Now()
	for i, k := range []string{free, pro} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i], _ = refresh(k)
		}()
	}
	wg.Wait()
	took := time.Since(began)
	var first refreshAnswer
	for i, a := range answers {
		if a.StatusCode != 200 {
			t.Fatalf("caller %d: %d %s", i, a.StatusCode, a.Body)
		}
	}
	if string(answers[0].Body) != string(answers[1].Body) {
		t.Errorf("different results:\n%s\n%s", answers[0].Body, answers[1].Body)
	}
	apptest.MustUnmarshal(t, answers[0].Body, &first)
	if len(first.Result.Recomputed) != 2 || first.Result.Recomputed[0].Reused || first.Result.Recomputed[0].Job != "port_calls" ||
		first.Result.Recomputed[1].Job != "congestion" || first.Result.Recomputed[0].From.Before(r.End.AddDate(0, 0, -4)) {
		t.Errorf("the shared refresh: %s", answers[0].Body)
	}
	t.Logf("two callers, one incremental refresh: %s (%s)", took.Round(time.Millisecond), answers[0].Body)

	// Nothing new since: the last runs are the answer (the new positions
	// moved a minute back, as if the refresh had come a minute after them).
	ageChangeLog(t, r.ChURL, time.Minute)
	began = time.Now()
	resp, again := refresh(key(overwatch.PlanStarter))
	if resp.StatusCode != 200 || len(again.Result.Recomputed) != 2 || !again.Result.Recomputed[0].Reused || !again.Result.Recomputed[1].Reused ||
		again.Result.Recomputed[0].Rows != first.Result.Recomputed[0].Rows {
		t.Errorf("with nothing new: %d %s", resp.StatusCode, resp.Body)
	}
	t.Logf("a refresh with nothing new: %s", time.Since(began).Round(time.Millisecond))

	// The cooldown: 429, Retry-After and when.
	resp, _ = refresh(free)
	var e struct {
		Error   string `json:"error"`
		RetryAt string `json:"retry_at"`
	}
	_ = json.Unmarshal(resp.Body, &e)
	retry, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	at, perr := time.Parse(time.RFC3339, e.RetryAt)
	if resp.StatusCode != 429 || retry < 1 || retry > int(write.RefreshCooldown.Seconds()) || perr != nil || !strings.Contains(e.Error, e.RetryAt) ||
		at.Sub(testclock.Now()) > write.RefreshCooldown {
		t.Errorf("within the cooldown: %d Retry-After %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), resp.Body)
	}

	// Another instance refreshing: its lock, held here, is waited for.
	ctx := context.Background()
	release, ok, err := s.Pg.Claim(ctx, write.RefreshLock, 0)
	if err != nil || !ok {
		t.Fatalf("claim: %v %v", ok, err)
	}
	go func() {
		time.Sleep(time.Second)
		release(ctx) //nolint:errcheck
	}()
	began = time.Now()
	if resp, _ := refresh(key(overwatch.PlanPro)); resp.StatusCode != 200 || time.Since(began) < 900*time.Millisecond {
		t.Errorf("while another instance refreshes: %d after %s: %s", resp.StatusCode, time.Since(began), resp.Body)
	}
}

// ageChangeLog moves every stamp of the positions' change log
// (position_days) back by d, as if the positions had been stored d earlier:
// the log counts whole minutes, so a test that needs its derivations to
// start in a later minute than a write moves the write back rather than
// wait for the clock.
func ageChangeLog(t *testing.T, chURL string, d time.Duration) {
	t.Helper()
	fx := chtest.Open(t, chURL)
	rows := fx.Query(t, "SELECT ingested_at, day, rows FROM position_days")
	var aged [][]any
	for rows.Next() {
		var at, day time.Time
		var n uint64
		if err := rows.Scan(&at, &day, &n); err != nil {
			t.Fatal(err)
		}
		aged = append(aged, []any{at.Add(-d), day, n})
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	fx.Exec(t, "TRUNCATE TABLE position_days")
	fx.Insert(t, "position_days", []string{"ingested_at", "day", "rows"}, aged...)
}
