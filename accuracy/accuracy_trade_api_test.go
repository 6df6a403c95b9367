package accuracy

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"overwatch/apptest"
	"overwatch/maritime/forecast"
	"overwatch/maritime/portstats"
	"overwatch/read"
	"path/filepath"
	"testing"
	"time"
)

// tradeAPI is what the trade evaluation reads through the API, as a user
// with a Pro key would.
type tradeAPI struct {
	flows      []read.Flow
	shifts     []read.Shift
	deceptions []read.Deception
	anomalies  []read.AnomalyItem
	accuracy   []read.AccuracyItem
	maturity   []read.MaturityItem
	forecasts  map[string]int // method → forecast rows served
}

// fetchTradeAPI reads every flow (week by week of the run), every shift,
// every deception (port by port of arrival when one list would be cut),
// every anomaly (port by port and type by type), the backtest and the
// maturity; and counts the forecasts of each method. No list may be cut
// at its limit.
func fetchTradeAPI(t *testing.T, s *apptest.TestServer, key string, start, dataEnd time.Time) *tradeAPI {
	t.Helper()
	api := &tradeAPI{forecasts: map[string]int{}}
	get := func(path string, into any) {
		t.Helper()
		r := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP(), Key: key})
		if r.StatusCode != 200 {
			t.Fatalf("%s: %d %s", path, r.StatusCode, r.Body)
		}
		apptest.MustUnmarshal(t, r.Body, into)
	}
	cut := func(path string, n, limit int) {
		if n >= limit {
			t.Errorf("%s: %d rows, the list may be cut", path, n)
		}
	}
	for w := portstats.Monday(start); w.Before(dataEnd); w = w.Add(7 * 24 * time.Hour) {
		path := "/v1/routes/flows?limit=500&week=" + w.Format(time.DateOnly)
		var body struct{ Flows []read.Flow }
		get(path, &body)
		cut(path, len(body.Flows), 500)
		api.flows = append(api.flows, body.Flows...)
	}
	var sh struct{ Shifts []read.Shift }
	get("/v1/routes/shifts?limit=500", &sh)
	cut("/v1/routes/shifts", len(sh.Shifts), 500)
	api.shifts = sh.Shifts
	var dec struct{ Deceptions []read.Deception }
	get("/v1/routes/deceptions?limit=500", &dec)
	if len(dec.Deceptions) < 500 {
		api.deceptions = dec.Deceptions
	} else {
		var ports struct{ Ports []struct{ Slug string } }
		get("/v1/ports", &ports)
		for _, p := range ports.Ports {
			path := "/v1/routes/deceptions?limit=500&actual_port=" + url.QueryEscape(p.Slug)
			var d struct{ Deceptions []read.Deception }
			get(path, &d)
			cut(path, len(d.Deceptions), 500)
			api.deceptions = append(api.deceptions, d.Deceptions...)
		}
	}
	var mat struct{ Maturity []read.MaturityItem }
	get("/v1/anomalies/maturity", &mat)
	api.maturity = mat.Maturity
	for _, m := range mat.Maturity {
		for _, typ := range forecast.Types {
			path := fmt.Sprintf("/v1/anomalies?limit=500&port=%s&type=%s", url.QueryEscape(m.Port), typ)
			var a struct{ Anomalies []read.AnomalyItem }
			get(path, &a)
			cut(path, len(a.Anomalies), 500)
			api.anomalies = append(api.anomalies, a.Anomalies...)
		}
	}
	for _, m := range forecast.Methods {
		path := "/v1/forecasts/accuracy?method=" + m
		var a struct{ Accuracy []read.AccuracyItem }
		get(path, &a)
		cut(path, len(a.Accuracy), 500)
		api.accuracy = append(api.accuracy, a.Accuracy...)
		var f struct{ Forecasts []read.ForecastItem }
		get("/v1/forecasts?limit=200&method="+m, &f)
		api.forecasts[m] = len(f.Forecasts)
	}
	return api
}

// keptTradeRun is a run's answers kept for scoring again.
type keptTradeRun struct {
	Start, DataEnd time.Time
	API            tradeAPI
}

// MarshalJSON and UnmarshalJSON keep the answers' fields.
func (a tradeAPI) MarshalJSON() ([]byte, error) { return json.Marshal(a.exported()) }

func (a *tradeAPI) UnmarshalJSON(b []byte) error {
	var e tradeAPIJSON
	if err := json.Unmarshal(b, &e); err != nil {
		return err
	}
	*a = tradeAPI{flows: e.Flows, shifts: e.Shifts, deceptions: e.Deceptions, anomalies: e.Anomalies, accuracy: e.Accuracy,
		maturity: e.Maturity, forecasts: e.Forecasts}
	return nil
}

type tradeAPIJSON struct {
	Flows      []read.Flow
	Shifts     []read.Shift
	Deceptions []read.Deception
	Anomalies  []read.AnomalyItem
	Accuracy   []read.AccuracyItem
	Maturity   []read.MaturityItem
	Forecasts  map[string]int
}

func (a tradeAPI) exported() tradeAPIJSON {
	return tradeAPIJSON{a.flows, a.shifts, a.deceptions, a.anomalies, a.accuracy, a.maturity, a.forecasts}
}

// keepTradeRun writes the truth file and the answers to dir.
func keepTradeRun(t *testing.T, dir, truthPath string, k keptTradeRun) {
	t.Helper()
	truth, err := os.ReadFile(truthPath)
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "truth.jsonl"), truth, 0o644)
	}
	var b []byte
	if err == nil {
		b, err = json.Marshal(k)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "api.json"), b, 0o644)
	}
	if err != nil {
		t.Error(err)
	}
}

// loadTradeRun reads the answers keepTradeRun wrote.
func loadTradeRun(t *testing.T, dir string) keptTradeRun {
	t.Helper()
	var k keptTradeRun
	b, err := os.ReadFile(filepath.Join(dir, "api.json"))
	if err == nil {
		err = json.Unmarshal(b, &k)
	}
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// logMisses logs every row's misses and false detections.
func logMisses(t *testing.T, rows []tradeRow) {
	for _, row := range rows {
		for _, m := range row.misses {
			t.Logf("%s: %s", row.name, m)
		}
	}
}
