package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"overwatch"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/postgres/pgtest"
	"overwatch/read"
	"overwatch/testclock"
	"slices"
	"strings"
	"testing"
	"time"
)

// freightWeekPasses moves the server's freight state a week into the past,
// as if a week had gone by: the records' submission times, the marks of
// the published weeks and the published aggregates (whose week is part of
// their key: moved far back first, then forward, so that no row lands on
// another's key on the way). The server's clock is the real one; this is
// how a test closes the week it submitted in.
func freightWeekPasses(t *testing.T, s *apptest.TestServer) {
	t.Helper()
	for _, q := range []string{
		`UPDATE freight_rates SET created_at = created_at - interval '7 days'`,
		`UPDATE freight_rate_weeks SET week = week - 7000`,
		`UPDATE freight_rate_weeks SET week = week + 6993`,
		`UPDATE freight_rate_aggregates SET week = week - 7000`,
		`UPDATE freight_rate_aggregates SET week = week + 6993`,
	} {
		if err := s.Pg.Exec(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// The attacks on the contributed rates, through the real server.
// Comparing answers over time: a reader who reads a route's aggregate,
// waits for a victim to post, delete or leave, and reads again would have
// the victim's rate from the two sums. A week's aggregate is published only
// once the week (of submission) has ended, and then never changes: before
// and after the victim posts in the open week the reader sees nothing of
// it; the closed week's aggregate, of six accounts, stays the same when the
// victim deletes its record, posts one dated in that week, or its account
// is deleted, and when another account moves its value across the others'
// (the old attack on a median or a trimmed mean). A route of three accounts
// is never shown; no minimum, maximum or median is ever shown.
func TestFreightAggregatesIsolateNoContributor(t *testing.T) {
	t.Parallel() // its own databases
	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": chtest.URL(t, "freight_pool"), "DATABASE_URL": pgtest.URL(t, "freight_pool")})
	key := func(name string) (string, int64) {
		return s.NewKey(t, apptest.UniqueEmail(t)+"-"+name, overwatch.PlanPro)
	}
	victim, victimID := key("victim")
	low, _ := key("low")
	high, _ := key("high")
	reader, _ := key("reader")
	today := testclock.Today().Format(time.DateOnly)
	post := func(k, origin string, rate float64, date string) int64 {
		t.Helper()
		r := s.Do(t, apptest.Request{Method: http.MethodPost, Path: "/v1/freight-rates", IP: apptest.FreshIP(), Key: k, Body: fmt.Sprintf(
			`{"vessel_type":"capesize","origin":%q,"destination":"qingdao","rate":%g,"unit":"usd_per_tonne","date":%q}`, origin, rate, date)})
		var created struct {
			FreightRate struct {
				ID int64 `json:"id"`
			} `json:"freight_rate"`
		}
		if r.StatusCode != 201 || json.Unmarshal(r.Body, &created) != nil {
			t.Fatalf("post %g: %d %s", rate, r.StatusCode, r.Body)
		}
		return created.FreightRate.ID
	}
	const secret = 37.25
	// What the reader sees of the contributions to a route, and the raw
	// answer.
	look := func(origin string) ([]read.FreightRate, string) {
		t.Helper()
		r := s.Do(t, apptest.Request{Path: "/v1/freight-rates?vessel_type=capesize&limit=200", IP: apptest.FreshIP(), Key: reader})
		var out freightAPI
		if r.StatusCode != 200 || json.Unmarshal(r.Body, &out) != nil {
			t.Fatalf("read: %d %s", r.StatusCode, r.Body)
		}
		var rows []read.FreightRate
		for _, row := range out.FreightRates {
			if row.Rate == secret {
				t.Errorf("the victim's rate in the answer: %+v", row)
			}
			if row.Source == "contributions" && row.Origin == origin {
				rows = append(rows, row)
			}
		}
		for _, field := range []string{`"min"`, `"max"`, `"median"`} {
			if strings.Contains(string(r.Body), field) {
				t.Errorf("the answer has %s: %s", field, r.Body)
			}
		}
		return rows, string(r.Body)
	}

	// The open week: five accounts on tubarao, then the victim. The reader
	// reads before and after the victim posts: nothing of the week, so no
	// pair of sums to subtract.
	highID := post(high, "tubarao", 499, today)
	post(low, "tubarao", 1, today)
	for i, v := range []float64{30, 44, 41} {
		k, _ := key(fmt.Sprintf("h%d", i))
		post(k, "tubarao", v, today)
		if i < 2 {
			post(k, "ponta-da-madeira", v, today) // three accounts with the low one
		}
	}
	post(low, "ponta-da-madeira", 35, today)
	if rows, body := look("tubarao"); len(rows) != 0 {
		t.Fatalf("the open week's aggregate shown before the victim posts: %s", body)
	}
	post(victim, "tubarao", secret, today)
	if rows, body := look("tubarao"); len(rows) != 0 {
		t.Fatalf("the open week's aggregate shown after the victim posts: %s", body)
	}

	// The week ends: its aggregate is published, of the six accounts, dated
	// the Monday of the week the records were submitted in; the route of
	// three accounts is not shown.
	freightWeekPasses(t, s)
	rows, body := look("tubarao")
	values := []float64{499, 1, 30, 44, 41, secret}
	if len(rows) != 1 || *rows[0].Contributors != 6 || *rows[0].Count != 6 || rows[0].Rate != read.PooledFreightRate(values) || rows[0].Period != "week" {
		t.Fatalf("the ended week, six contributors: %s", body)
	}
	published := rows[0]
	// Its date is the Monday of the week the victim's record was submitted
	// in (whatever the record's own date).
	r := s.Do(t, apptest.Request{Path: "/v1/freight-rates?vessel_type=capesize", IP: apptest.FreshIP(), Key: victim})
	var mine freightAPI
	if r.StatusCode != 200 || json.Unmarshal(r.Body, &mine) != nil {
		t.Fatalf("the victim's records: %d %s", r.StatusCode, r.Body)
	}
	own := slices.IndexFunc(mine.FreightRates, func(r read.FreightRate) bool { return r.Source == "own" })
	if own < 0 {
		t.Fatalf("the victim's record not listed: %s", r.Body)
	}
	submitted := mine.FreightRates[own].CreatedAt.UTC()
	week := submitted.Truncate(24*time.Hour).AddDate(0, 0, -((int(submitted.Weekday()) + 6) % 7))
	if published.Date != week.Format(time.DateOnly) {
		t.Errorf("the aggregate's date %s, want %s, the Monday of the victim's submission at %s", published.Date, week.Format(time.DateOnly), submitted)
	}
	if rows, body := look("ponta-da-madeira"); len(rows) != 0 {
		t.Errorf("three contributors shown: %s", body)
	}
	unchanged := func(what string) {
		t.Helper()
		rows, body := look("tubarao")
		if len(rows) != 1 || rows[0].Rate != published.Rate || *rows[0].Count != *published.Count ||
			*rows[0].Contributors != *published.Contributors || rows[0].Date != published.Date {
			t.Errorf("%s: the published aggregate changed or another appeared: %s, was %+v", what, body, published)
		}
	}

	// The victim deletes its records: nothing changes.
	if r := s.Do(t, apptest.Request{Method: http.MethodDelete, Path: "/v1/freight-rates", IP: apptest.FreshIP(), Key: victim}); r.StatusCode != 200 ||
		string(r.Body) != `{"deleted":1}` {
		t.Fatalf("victim's delete: %d %s", r.StatusCode, r.Body)
	}
	unchanged("after the victim deleted its record")
	// It posts a record dated in the published week: nothing changes.
	post(victim, "tubarao", secret+10, published.Date)
	unchanged("after the victim posted a record dated in the published week")
	// The high account moves its value across the others': nothing changes.
	for _, v := range []float64{36, 37.5, 29, 45} {
		if r := s.Do(t, apptest.Request{Method: http.MethodDelete, Path: fmt.Sprintf("/v1/freight-rates/%d", highID), IP: apptest.FreshIP(), Key: high}); r.StatusCode != 200 {
			t.Fatalf("delete: %d %s", r.StatusCode, r.Body)
		}
		highID = post(high, "tubarao", v, published.Date)
		unchanged(fmt.Sprintf("with the high account at %g", v))
	}
	// The victim's account is deleted: nothing changes.
	if err := s.Pg.Exec(context.Background(), `DELETE FROM accounts WHERE id = $1`, victimID); err != nil {
		t.Fatal(err)
	}
	unchanged("after the victim's account was deleted")

	// Another week ends: what was posted since is its own week's (two
	// accounts: not shown), never the published week's (a week further
	// back now: freightWeekPasses moves the published weeks too).
	freightWeekPasses(t, s)
	published.Date = week.AddDate(0, 0, -7).Format(time.DateOnly)
	unchanged("after the next week ended")
}
