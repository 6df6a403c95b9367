package accuracy

import (
	"encoding/json"
	"fmt"
	"overwatch"
	"overwatch/apptest"
	"overwatch/maritime/risk"
	"overwatch/read"
	"overwatch/write/sim"
	"testing"
	"time"
)

// accAPI is what the evaluation reads through the API: every risk event
// (each once), each vessel's destination reliability, and when each
// vessel's identity history begins.
type accAPI struct {
	events      []risk.Event
	reliability map[overwatch.IMO]read.Reliability
	firstSeen   map[overwatch.IMO]time.Time
}

// fleetOf is the simulated vessels of the truth.
func fleetOf(truth []sim.Truth) []overwatch.IMO {
	var out []overwatch.IMO
	for _, tr := range truth {
		if tr.Type == "vessel" && len(tr.Vessels) == 1 {
			out = append(out, tr.Vessels[0])
		}
	}
	return out
}

// fetchAccuracyAPI asks the server, with a Pro key (unlimited history, 500
// results per call), for each vessel's events (/v1/risk/events?vessel=),
// destination reliability and identity history. A transfer must be listed
// for both its vessels, and no list may be cut at 500.
func fetchAccuracyAPI(t *testing.T, s *apptest.TestServer, key string, fleet []overwatch.IMO) *accAPI {
	t.Helper()
	api := &accAPI{reliability: map[overwatch.IMO]read.Reliability{}, firstSeen: map[overwatch.IMO]time.Time{}}
	seen := map[string]bool{}
	listed := map[string]map[overwatch.IMO]bool{} // transfer id → the vessels whose list holds it
	var transfers []risk.Event
	get := func(path string, into any) int {
		t.Helper()
		r := s.Do(t, apptest.Request{Path: path, IP: apptest.FreshIP(), Key: key})
		if r.StatusCode == 200 {
			apptest.MustUnmarshal(t, r.Body, into)
		} else if r.StatusCode != 404 {
			t.Fatalf("%s: %d %s", path, r.StatusCode, r.Body)
		}
		return r.StatusCode
	}
	for _, imo := range fleet {
		var ev struct{ Events []read.RiskEvent }
		get(fmt.Sprintf("/v1/risk/events?vessel=%s&limit=500", imo), &ev)
		if len(ev.Events) == 500 {
			t.Errorf("vessel %s: 500 events, the list may be cut", imo)
		}
		for _, e := range ev.Events {
			if e.Type == risk.EventSTS {
				if listed[e.ID] == nil {
					listed[e.ID] = map[overwatch.IMO]bool{}
				}
				listed[e.ID][imo] = true
			}
			if seen[e.ID] {
				continue
			}
			seen[e.ID] = true
			re, err := riskEventOf(e)
			if err != nil {
				t.Fatalf("event %s: %v", e.ID, err)
			}
			api.events = append(api.events, re)
			if re.Type == risk.EventSTS {
				transfers = append(transfers, re)
			}
		}
		var rel struct{ Reliability []read.Reliability }
		if get("/v1/destination-reliability?vessel="+imo.String(), &rel) == 200 && len(rel.Reliability) == 1 {
			api.reliability[imo] = rel.Reliability[0]
		}
		var hist read.IdentityHistoryBody
		if get("/v1/risk/identity/history?vessel="+imo.String(), &hist) == 200 && len(hist.History) > 0 {
			if at, err := time.Parse(time.RFC3339, hist.History[0].ValidFrom); err == nil {
				api.firstSeen[imo] = at
			}
		}
	}
	for _, e := range transfers {
		id := fmt.Sprintf("%s-%s-%s-%s", e.Type, e.IMO, e.Start.UTC().Format("20060102T150405Z"), e.Other)
		if !listed[id][e.IMO] || !listed[id][e.Other] {
			t.Errorf("transfer %s is not listed by /v1/risk/events for both vessels: %v", id, listed[id])
		}
	}
	return api
}

// riskEventOf is the risk.Event an API event stands for.
func riskEventOf(e read.RiskEvent) (risk.Event, error) {
	out := risk.Event{Type: e.Type, Severity: e.Severity}
	var err error
	if out.IMO, err = overwatch.ParseIMO(e.Vessel.IMO); err != nil {
		return out, err
	}
	if e.OtherVessel != nil {
		if out.Other, err = overwatch.ParseIMO(e.OtherVessel.IMO); err != nil {
			return out, err
		}
	}
	if e.Subtype != nil {
		out.Subtype = *e.Subtype
	}
	if e.Port != nil {
		out.Port = *e.Port
	}
	if out.Start, err = time.Parse(time.RFC3339, e.Start); err != nil {
		return out, err
	}
	if e.End != nil {
		end, err := time.Parse(time.RFC3339, *e.End)
		if err != nil {
			return out, err
		}
		out.End = &end
	}
	if p := e.Position; p != nil && p.Lat != nil && p.Lon != nil {
		out.Lat, out.Lon, out.HasPosition = *p.Lat, *p.Lon, true
	}
	if p := e.EndPosition; p != nil && p.Lat != nil && p.Lon != nil {
		out.EndLat, out.EndLon, out.HasEndPosition = *p.Lat, *p.Lon, true
	}
	if err := json.Unmarshal(e.Detail, &out.Detail); err != nil {
		return out, err
	}
	return out, nil
}
