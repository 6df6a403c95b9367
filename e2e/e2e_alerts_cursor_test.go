package e2e

import (
	"context"
	"encoding/json"
	"net/url"
	"overwatch"
	"overwatch/apptest"
	"overwatch/read"
	"overwatch/testclock"
	"strings"
	"testing"
	"time"
)

// The unified feed's cursor in both forms through the real server: an ISO
// 8601 timestamp (any offset, or a date) starts the page at the alerts
// raised strictly before it, newest first, and its next_cursor goes on
// from there; a malformed cursor is a 400 naming cursor.
func TestUnifiedAlertsISOCursor(t *testing.T) {
	s := apptest.StartServer(t, nil)
	key, account := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	ids := raiseFor(t, s, account, 3)
	// Raised 3, 2 and 1 hours before now, on whole microseconds (the
	// store's precision).
	now := testclock.Now().UTC().Truncate(time.Second)
	raised := map[string]time.Time{}
	for i, id := range ids {
		at := now.Add(-time.Duration(3-i) * time.Hour)
		raised[id] = at
		if err := s.Pg.Exec(context.Background(), `UPDATE alerts SET created_at = $1 WHERE id = $2`, at, strings.TrimPrefix(id, "overwatch:")); err != nil {
			t.Fatal(err)
		}
	}
	type page struct {
		Alerts     []read.UnifiedAlert `json:"alerts"`
		Pagination struct {
			HasMore    bool    `json:"has_more"`
			NextCursor *string `json:"next_cursor"`
		} `json:"pagination"`
	}
	get := func(query string) page {
		t.Helper()
		r := s.Do(t, apptest.Request{Path: "/v1/alerts/unified?" + query, IP: apptest.FreshIP(), Key: key})
		if r.StatusCode != 200 {
			t.Fatalf("%s: %d %s", query, r.StatusCode, r.Body)
		}
		var p page
		apptest.MustUnmarshal(t, r.Body, &p)
		return p
	}
	listed := func(p page) string {
		var out []string
		for _, a := range p.Alerts {
			out = append(out, a.AlertID)
		}
		return strings.Join(out, " ")
	}
	newest, middle, oldest := ids[2], ids[1], ids[0]
	cursor := func(t time.Time, layout string) string { return "cursor=" + url.QueryEscape(t.Format(layout)) }
	for query, want := range map[string]string{
		// Strictly before: the alert raised at the instant is not listed.
		cursor(raised[middle], time.RFC3339):                                                 oldest,
		cursor(raised[middle].Add(time.Nanosecond), time.RFC3339Nano):                        middle + " " + oldest,
		cursor(raised[middle].Add(time.Minute).In(time.FixedZone("", 2*3600)), time.RFC3339): middle + " " + oldest,
		cursor(now.Add(time.Hour), time.RFC3339):                                             newest + " " + middle + " " + oldest,
		cursor(raised[oldest], time.RFC3339):                                                 "",
		"cursor=" + now.AddDate(0, 0, 1).Format(time.DateOnly):                               newest + " " + middle + " " + oldest,
		"cursor=" + raised[oldest].AddDate(0, 0, -1).Format(time.DateOnly):                   "",
	} {
		if got := listed(get(query)); got != want {
			t.Errorf("%s: %q, want %q", query, got, want)
		}
	}
	// A page started at a timestamp goes on by its next_cursor.
	p := get(cursor(now.Add(time.Hour), time.RFC3339) + "&limit=2")
	if listed(p) != newest+" "+middle || !p.Pagination.HasMore || p.Pagination.NextCursor == nil {
		t.Fatalf("first page %+v", p)
	}
	if got := listed(get("limit=2&cursor=" + url.QueryEscape(*p.Pagination.NextCursor))); got != oldest {
		t.Errorf("second page: %q, want %q", got, oldest)
	}
	for _, bad := range []string{"xyz", "2026-13-01T00:00:00Z", "2026-01-31T00:00:00", "yesterday", "1738281600"} {
		r := s.Do(t, apptest.Request{Path: "/v1/alerts/unified?cursor=" + url.QueryEscape(bad), IP: apptest.FreshIP(), Key: key})
		var e struct {
			Error     string `json:"error"`
			Parameter string `json:"parameter"`
		}
		_ = json.Unmarshal(r.Body, &e)
		if r.StatusCode != 400 || e.Parameter != "cursor" || !strings.Contains(e.Error, "ISO 8601") {
			t.Errorf("cursor %q: %d %s", bad, r.StatusCode, r.Body)
		}
	}
}
