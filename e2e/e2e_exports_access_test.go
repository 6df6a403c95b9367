package e2e

import (
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/bulk"
	"overwatch/jobs"
	"overwatch/testclock"
	"overwatch/write"
	"overwatch/write/outbound"
)

// TestExportAccess: the plans (Free and Starter 403 naming the plan),
// the body's checks (400 naming the field), tenancy (another account's
// export is a 404 for its status and download and absent from its list),
// a download before completion (409), the daily quota (429 naming it).
func TestExportAccess(t *testing.T) {
	s := apptest.StartServer(t, map[string]string{"OVERWATCH_EXPORT_DIR": t.TempDir()})
	v := layTrack(t, s, "EXPORT ACCESS", 40.0, -20.0)
	pro, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	other, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanSupplyChainRisk)
	free, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanFree)
	starter, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanStarter)
	expect := apptest.Expecter(t)
	post := func(key, body string) apptest.Response {
		return s.Do(t, apptest.Request{Method: "POST", Path: "/v1/exports", IP: apptest.FreshIP(), Key: key, Body: body})
	}
	body := `{"dataset":"positions","format":"csv","filters":{"imo":"` + v.imo.String() + `"}}`
	expect(post(free, body), 403, "the Pro plan or higher is needed for bulk exports; this key's plan is Free")
	expect(post(starter, body), 403, "the Pro plan or higher is needed for bulk exports; this key's plan is Starter")

	for _, c := range []struct{ body, param string }{
		{`{"dataset":"ships"}`, "dataset"},
		{`{"dataset":"positions","format":"xlsx"}`, "format"},
		{`{"dataset":"voyages","format":"geojson"}`, "format"},
		{`{"dataset":"emissions","format":"geojson"}`, "format"},
		{`{"dataset":"positions","filters":{"bbox":"1,2,3"}}`, "filters.bbox"},
		{`{"dataset":"positions","filters":{"bbox":[10,50,20,40]}}`, "filters.bbox"},
		{`{"dataset":"positions","filters":{"color":"red"}}`, "filters.color"},
		{`{"dataset":"port_calls","filters":{"mmsi":"244000001"}}`, "filters.mmsi"},
		{`{"dataset":"voyages","filters":{"bbox":"1,2,3,4"}}`, "filters.bbox"},
		{`{"dataset":"positions","filters":{"imo":"12345"}}`, "filters.imo"},
		{`{"dataset":"positions","filters":{"start":"yesterday"}}`, "filters.start"},
		{`{"dataset":"positions","filters":{"polygon":{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,0]]]}}}`, "filters.polygon"},
		{`{"dataset":"positions","filters":{"source":["aishub","pigeon"]}}`, "filters.source"},
	} {
		r := post(pro, c.body)
		var e struct{ Error, Parameter string }
		_ = json.Unmarshal(r.Body, &e)
		if r.StatusCode != 400 || e.Parameter != c.param || !strings.Contains(e.Error, c.param) {
			t.Errorf("%s: %d %s, want 400 naming %s", c.body, r.StatusCode, r.Body, c.param)
		}
	}
	expect(post(pro, `{"dataset":"positions","extra":1}`), 400, "body must be a JSON object")

	e := exportOf(t, s, pro, body)
	for _, path := range []string{"/v1/exports/" + e.ID, "/v1/exports/" + e.ID + "/download", "/v1/exports/exp_000000000000000000000000", "/v1/exports/nope"} {
		expect(s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP(), Key: other}), 404, "no export")
	}
	if slices.ContainsFunc(listExports(t, s, other), func(x bulk.Export) bool { return x.ID == e.ID }) {
		t.Error("another account lists the export")
	}
	if !slices.ContainsFunc(listExports(t, s, pro), func(x bulk.Export) bool { return x.ID == e.ID }) {
		t.Error("its account does not list the export")
	}
	// Queued or running, the download waits for completion.
	if code, now := exportStatus(t, s, pro, e.ID); code == 200 && now.Status != bulk.Completed {
		r := downloadExport(t, s, pro, e.ID, "")
		if r.StatusCode != 409 && !(r.StatusCode == 200 && waitExport(t, s, pro, e.ID).Status == bulk.Completed) {
			t.Errorf("download before completion: %d %s", r.StatusCode, r.Body)
		}
	}
	if e = waitExport(t, s, pro, e.ID); e.Status != bulk.Completed || *e.Rows != 26 {
		t.Fatalf("export: %+v", e)
	}
	expect(downloadExport(t, s, other, e.ID, ""), 404, "no export")

	// The daily quota: the plan's exports per day, then 429 naming it.
	perDay := overwatch.PlanSupplyChainRisk.Info().ExportsPerDay
	for i := range perDay {
		if r := post(other, `{"dataset":"voyages","filters":{"imo":"`+v.imo.String()+`"}}`); r.StatusCode != 202 {
			t.Fatalf("export %d of %d: %d %s", i+1, perDay, r.StatusCode, r.Body)
		}
	}
	r := post(other, `{"dataset":"voyages"}`)
	expect(r, 429, "exports_per_day is "+strconv.Itoa(perDay))
}

// TestExportWebhooksAndExpiry: a completed export queues one signed
// export.completed delivery, an export over its rows per export fails
// (its partial file removed) and queues export.failed; after the TTL the
// export is expired, its download a 410, and the export_expiry job of the
// job table deletes its file.
func TestExportWebhooksAndExpiry(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"OVERWATCH_EXPORT_DIR": dir, "OVERWATCH_EXPORT_TTL": "4s", "OVERWATCH_OUTBOUND_ALLOW": "127.0.0.0/8"}
	s := apptest.StartServer(t, env)
	v := layTrack(t, s, "EXPORT HOOK", 30.0, 130.0)
	pro, account := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	rcv := &receiver{}
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	r := s.Do(t, apptest.Request{Method: "POST", Path: "/v1/webhooks", IP: apptest.FreshIP(), Key: pro,
		Body: `{"url":"` + srv.URL + `","event_types":["export.completed","export.failed"]}`})
	if r.StatusCode != 201 {
		t.Fatalf("webhook: %d %s", r.StatusCode, r.Body)
	}
	var hook write.CreatedWebhook
	apptest.MustUnmarshal(t, r.Body, &struct{ Webhook *write.CreatedWebhook }{&hook})

	e := waitExport(t, s, pro, exportOf(t, s, pro, `{"dataset":"positions","format":"parquet","filters":{"imo":"`+v.imo.String()+`"}}`).ID)
	if e.Status != bulk.Completed {
		t.Fatalf("export: %+v", e)
	}
	// An export whose rows exceed its limit (arranged in the store: the
	// plans' limits are millions of rows) fails with a message naming it.
	failing := "exp_" + strings.Repeat("ab", 12)
	if _, err := s.Pg.CreateExport(context.Background(), bulk.NewExport{ID: failing, AccountID: account, Dataset: bulk.Positions, Format: bulk.CSV,
		Filters: map[string]string{"imo": v.imo.String()}, Estimated: 26, MaxRows: 10, CreatedAt: testclock.Now()}, bulk.Quota{PerDay: 100}); err != nil {
		t.Fatal(err)
	}
	f := waitExport(t, s, pro, failing)
	if f.Status != bulk.Failed || f.Error == nil || !strings.Contains(*f.Error, "export_max_rows") || f.Rows != nil || f.DownloadURL != nil {
		t.Fatalf("failed export: %+v", f)
	}
	// (The directory may hold other tests' exports: the queue is the
	// database's, shared by every server on it.)
	if parts, _ := filepath.Glob(filepath.Join(dir, failing+"*")); len(parts) != 0 {
		t.Errorf("files of the failed export: %v", parts)
	}

	ctx := context.Background()
	poster := app.NewWebhookPoster(outbound.New(outbound.Options{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, AllowHTTP: true}))
	for range 2 { // the second finds nothing left: delivered once
		if _, err := jobs.DeliverDue(ctx, s.Pg, poster, time.Now, 100); err != nil {
			t.Fatal(err)
		}
	}
	rcv.mu.Lock()
	got := map[string]map[string]any{}
	for i, h := range rcv.headers {
		if err := write.VerifyWebhook(hook.Secret, h.Get("webhook-id"), h.Get("webhook-timestamp"), h.Get("webhook-signature"), rcv.bodies[i], time.Now()); err != nil {
			t.Errorf("delivery %d: %v", i, err)
		}
		var p struct {
			Type   string
			Export map[string]any
		}
		apptest.MustUnmarshal(t, rcv.bodies[i], &p)
		got[h.Get("webhook-id")] = p.Export
		if p.Type == bulk.EventCompleted && (p.Export["id"] != e.ID || p.Export["rows"] != float64(26) || p.Export["bytes"] != float64(*e.Bytes) ||
			p.Export["dataset"] != "positions" || p.Export["download_url"] != *e.DownloadURL) {
			t.Errorf("export.completed payload: %s", rcv.bodies[i])
		}
		if p.Type == bulk.EventFailed && (p.Export["id"] != failing || !strings.Contains(p.Export["error"].(string), "export_max_rows")) {
			t.Errorf("export.failed payload: %s", rcv.bodies[i])
		}
	}
	if rcv.calls != 2 || got["export_"+e.ID+"_completed"] == nil || got["export_"+failing+"_failed"] == nil {
		t.Errorf("deliveries: %d calls, %v", rcv.calls, rcv.ok)
	}
	rcv.mu.Unlock()

	// Expiry: after the TTL, 410; the job deletes the file.
	file := filepath.Join(dir, e.ID+".parquet")
	if _, err := os.Stat(file); err != nil {
		t.Fatal(err)
	}
	apptest.Eventually(t, 20*time.Second, "expired", func() bool {
		_, x := exportStatus(t, s, pro, e.ID)
		return x.Status == bulk.Expired
	})
	if _, x := exportStatus(t, s, pro, e.ID); x.DownloadURL != nil {
		t.Errorf("an expired export has a download_url: %+v", x)
	}
	apptest.Expecter(t)(downloadExport(t, s, pro, e.ID, ""), 410, "expired")
	chURL, pgURL := apptest.Stores(t)
	vars := map[string]string{"CLICKHOUSE_URL": chURL, "DATABASE_URL": pgURL, "OVERWATCH_EXPORT_DIR": dir, "OVERWATCH_METRICS_ADDR": "127.0.0.1:0"}
	for k, v := range apptest.OfflineSources {
		vars[k] = v
	}
	out := &apptest.SyncWriter{}
	if err := app.Run(ctx, []string{"overwatch", "jobs", "--job", "export_expiry"}, apptest.ClockEnv(func(k string) string { return vars[k] }), out, io.Discard); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("the expired file is still there: %v\n%s", err, out)
	}
	if _, x := exportStatus(t, s, pro, e.ID); x.Status != bulk.Expired {
		t.Errorf("after the job: %+v", x)
	}
}
