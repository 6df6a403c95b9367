package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"overwatch"
	"overwatch/clickhouse/chtest"
	"overwatch/postgres/pgtest"
	"overwatch/read"
	"overwatch/testclock"
)

// The attack on the contributed rates, through the real server: two
// accounts one person controls post 1 and 499 on the victim's route and a
// third reads. With three contributors the aggregate is not shown (the
// median of 1, x, 499 gave the victim's x back); from five (k) it is the
// mean of the accounts' values, never the victim's rate, without a
// minimum, a maximum or a median; and however the two move their own
// values, each answer tells them the same sum of the others', never one of
// them.
func TestFreightAggregatesIsolateNoContributor(t *testing.T) {
	s := startServer(t, map[string]string{"CLICKHOUSE_URL": chtest.URL(t, "freight_pool"), "DATABASE_URL": pgtest.URL(t, "freight_pool")})
	key := func(name string) string {
		k, _ := s.newKey(t, uniqueEmail(t)+"-"+name, overwatch.PlanPro)
		return k
	}
	victim, low, high, reader := key("victim"), key("low"), key("high"), key("reader")
	today := testclock.Today().Format(time.DateOnly)
	post := func(k string, rate float64) int64 {
		t.Helper()
		r := s.do(t, request{method: http.MethodPost, path: "/v1/freight-rates", ip: freshIP(), key: k, body: fmt.Sprintf(
			`{"vessel_type":"capesize","origin":"tubarao","destination":"qingdao","rate":%g,"unit":"usd_per_tonne","date":%q}`, rate, today)})
		var created struct {
			FreightRate struct {
				ID int64 `json:"id"`
			} `json:"freight_rate"`
		}
		if r.StatusCode != 201 || json.Unmarshal(r.body, &created) != nil {
			t.Fatalf("post %g: %d %s", rate, r.StatusCode, r.body)
		}
		return created.FreightRate.ID
	}
	const secret = 37.25
	post(victim, secret)
	post(low, 1)
	highID := post(high, 499)
	// What the reader sees of the route, and the raw answer.
	look := func() (*read.FreightRate, string) {
		t.Helper()
		r := s.do(t, request{path: "/v1/freight-rates?vessel_type=capesize&limit=200", ip: freshIP(), key: reader})
		var out freightAPI
		if r.StatusCode != 200 || json.Unmarshal(r.body, &out) != nil {
			t.Fatalf("read: %d %s", r.StatusCode, r.body)
		}
		for _, row := range out.FreightRates {
			if row.Rate == secret {
				t.Errorf("the victim's rate in the answer: %+v", row)
			}
			if row.Source == "contributions" && row.Origin == "tubarao" {
				return &row, string(r.body)
			}
		}
		return nil, string(r.body)
	}
	if row, body := look(); row != nil {
		t.Fatalf("three contributors shown: %s", body)
	}

	// Two more accounts: five stand behind the route.
	post(key("h1"), 30)
	post(key("h2"), 44)
	row, body := look()
	others := secret + 30 + 44
	if row == nil || *row.Contributors != 5 || *row.Count != 5 || row.Rate != read.PooledFreightRate([]float64{1, 499, 30, secret, 44}) {
		t.Fatalf("five contributors: %s", body)
	}
	for _, field := range []string{`"min"`, `"max"`, `"median"`} {
		if strings.Contains(body, field) {
			t.Errorf("the answer has %s: %s", field, body)
		}
	}
	// The high account moves its value across the others': every answer
	// gives the same sum of the others' values, and nothing finer.
	for _, v := range []float64{499, 36, 37.5, 29, 45, 1} {
		if r := s.do(t, request{method: http.MethodDelete, path: fmt.Sprintf("/v1/freight-rates/%d", highID), ip: freshIP(), key: high}); r.StatusCode != 200 {
			t.Fatalf("delete: %d %s", r.StatusCode, r.body)
		}
		highID = post(high, v)
		row, body := look()
		if row == nil {
			t.Fatalf("with %g: no aggregate: %s", v, body)
		}
		if got := row.Rate*5 - 1 - v; got < others-0.03 || got > others+0.03 {
			t.Errorf("with %g: rate %g tells %g, not the others' sum %g", v, row.Rate, got, others)
		}
	}
}
