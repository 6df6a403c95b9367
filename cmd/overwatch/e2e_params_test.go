package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"overwatch"
)

// Every list of the route table parses its numbers alike, through the one
// parser of read/params.go: for each GET route (newApp's route table)
// whose operation takes integer query parameters (limit, days, weeks,
// hours), an overflowing, a negative, a zero and a non-numeric value of
// each is a 400 whose message names the parameter and whose `parameter`
// is it; the number parameters (lat, lng, radius, distance_nm,
// speed_knots) likewise for a non-numeric and an overflowing value. A
// limit above the endpoint's maximum is clamped: the route answers as it
// does without one. Routes with a file form (format=csv, pdf) are swept
// in each form. Sent through the real server, every answer validated
// against the OpenAPI document.
func TestEveryListParsesItsNumbersAlike(t *testing.T) {
	s := startServer(t, map[string]string{"OVERWATCH_KEYED_LIMIT_PER_MINUTE": "100000"})
	key, _ := s.newKey(t, uniqueEmail(t), overwatch.PlanPro)
	doc, _, err := loadOpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	// The values of the parameters a route requires.
	required := map[string]string{"port": "rotterdam", "lat": "51.95", "lng": "4.05", "vessel": "9321483", "imo": "9321483", "id": "1"}
	bad := map[string][]string{
		"integer": {"99999999999999999999", "-1", "0", "ten"},
		"number":  {"1e999", "ten"},
	}
	get := func(path string, q url.Values) response {
		t.Helper()
		target := "/v1" + path
		if len(q) > 0 {
			target += "?" + q.Encode()
		}
		return s.do(t, request{path: target, ip: freshIP(), key: key})
	}

	var lists []string
	swept := 0
	for _, rt := range newApp(&deps{limits: limits{store: newMemoryRates()}}).GetRoutes(true) {
		if rt.Method != http.MethodGet || !strings.HasPrefix(rt.Path, "/v1/") {
			continue
		}
		path := routeParam.ReplaceAllString(strings.TrimPrefix(rt.Path, "/v1"), "{$1}")
		item := doc.Paths.Find(path)
		if item == nil || item.Get == nil {
			continue // TestUnknownRoutesAndOpenAPI fails on an undocumented route
		}
		op := item.Get
		base := url.Values{}
		numeric := map[string]string{} // name: integer or number
		var formats []string
		for _, p := range append(item.Parameters, op.Parameters...) {
			v := p.Value
			if v.In == "path" {
				path = strings.ReplaceAll(path, "{"+v.Name+"}", required[v.Name])
				continue
			}
			if v.In != "query" || v.Schema == nil || v.Schema.Value == nil {
				continue
			}
			if v.Required {
				base.Set(v.Name, required[v.Name])
			}
			sch := v.Schema.Value
			switch {
			case sch.Type.Is(openapi3.TypeInteger), sch.Type.Is(openapi3.TypeNumber):
				numeric[v.Name] = sch.Type.Slice()[0]
			case v.Name == "format":
				for _, e := range sch.Enum {
					if f, _ := e.(string); f != "json" {
						formats = append(formats, f)
					}
				}
			}
		}
		if len(numeric) == 0 {
			continue
		}
		if _, ok := numeric["limit"]; ok {
			lists = append(lists, path)
		}
		for _, form := range append([]string{""}, formats...) {
			q := cloneValues(base)
			if form != "" {
				q.Set("format", form)
			}
			baseline := get(path, q)
			if baseline.StatusCode == 400 {
				t.Errorf("GET %s?%s: 400 without a numeric parameter: %s", path, q.Encode(), baseline.body)
				continue
			}
			names := make([]string, 0, len(numeric))
			for name := range numeric {
				names = append(names, name)
			}
			sort.Strings(names)
			for _, name := range names {
				for _, v := range bad[numeric[name]] {
					bq := cloneValues(q)
					bq.Set(name, v)
					r := get(path, bq)
					swept++
					var e struct {
						Error     string `json:"error"`
						Parameter string `json:"parameter"`
					}
					_ = json.Unmarshal(r.body, &e)
					if r.StatusCode != 400 || !strings.Contains(e.Error, name) || e.Parameter != name {
						t.Errorf("GET %s?%s: %d %s, want a 400 naming %s in its message and its parameter", path, bq.Encode(), r.StatusCode, r.body, name)
					}
				}
			}
			if _, ok := numeric["limit"]; ok {
				bq := cloneValues(q)
				bq.Set("limit", "9999999999999")
				if r := get(path, bq); r.StatusCode != baseline.StatusCode {
					t.Errorf("GET %s?%s: %d %s, want %d as without limit (a large limit is clamped)", path, bq.Encode(), r.StatusCode, r.body, baseline.StatusCode)
				}
			}
		}
	}
	sort.Strings(lists)
	t.Logf("%d requests; lists swept: %s", swept, strings.Join(lists, " "))
	if len(lists) < 31 {
		t.Errorf("only %d lists with a limit in the route table", len(lists))
	}
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}
