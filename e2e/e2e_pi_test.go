package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/clickhouse/chtest"
	"overwatch/postgres/pgtest"
	"overwatch/read"
	"overwatch/write"
	"path/filepath"
	"strings"
	"testing"
)

// piCoverageAPI is the JSON of GET /v1/pi-coverage.
type piCoverageAPI struct {
	Vessel     *string               `json:"vessel"`
	Coverage   []read.PICoverageItem `json:"coverage"`
	Assessment *read.PIAssessment    `json:"assessment"`
}

// P&I through the real server: the insurer table (the twelve Group
// clubs after the NorthStandard merger), a CSV import as text/csv and as
// multipart (fuzzy and former-name matching, rejected rows with lines and
// reasons, unmatched clubs, 413 over 10 MiB), and tenancy: an account's
// records are layered over the shared base for it alone, for one vessel
// and in the list of every vessel's records (without vessel).
func TestPICoverageEndToEnd(t *testing.T) {
	t.Parallel() // its own databases
	chURL, pgURL := chtest.URL(t, "pi_e2e"), pgtest.URL(t, "pi_e2e")
	env := map[string]string{"CLICKHOUSE_URL": chURL, "DATABASE_URL": pgURL, "OVERWATCH_LOG_LEVEL": "warn"}
	s := apptest.StartServer(t, env)
	ctx := context.Background()
	alice, _ := s.NewKey(t, apptest.UniqueEmail(t)+"-alice", overwatch.PlanFree)
	bob, _ := s.NewKey(t, apptest.UniqueEmail(t)+"-bob", overwatch.PlanPro)
	expect := apptest.Expecter(t)
	send := func(key, method, path, contentType, body string) apptest.Response {
		t.Helper()
		h := map[string]string{}
		if contentType != "" {
			h["Content-Type"] = contentType
		}
		return s.Do(t, apptest.Request{Method: method, Path: path, IP: apptest.FreshIP(), Key: key, Header: h, Body: body})
	}

	// The shared base, loaded by the import command: one Gard record of
	// the vessel, seen by everyone.
	path := filepath.Join(t.TempDir(), "base.csv")
	if err := os.WriteFile(path, []byte("imo,club,vessel_name,effective_from,effective_to\n9321483,Gard P&I (Bermuda) Ltd,BASE NAME,2024-02-20,2025-02-20\n9321484,Gard,X,,\n9074729,Sea Shield Mutual,,2020-01-01,2020-12-31\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := app.Run(ctx, []string{"overwatch", "import", "pi-coverage", "--source", "e2e base", path}, apptest.ClockEnv(func(k string) string { return env[k] }), &out, io.Discard); err != nil ||
		!strings.Contains(out.String(), "2 stored in the shared base, 1 rejected") || !strings.Contains(out.String(), ":3: imo") {
		t.Fatalf("import: %v\n%s", err, out.String())
	}

	// The insurer table.
	r := send(alice, http.MethodGet, "/v1/pi-clubs", "", "")
	expect(r, 200, "NorthStandard")
	var clubs struct {
		Clubs []read.PIClub `json:"clubs"`
	}
	if err := json.Unmarshal(r.Body, &clubs); err != nil {
		t.Fatal(err)
	}
	members := 0
	for _, c := range clubs.Clubs {
		if c.GroupMember {
			members++
		}
		if c.ID == "north" || c.ID == "standard" {
			t.Errorf("pre-merger club %s listed", c.ID)
		}
	}
	if members != 12 {
		t.Errorf("%d group members, want 12", members)
	}
	if last := clubs.Clubs[len(clubs.Clubs)-1]; last.Name != "Sea Shield Mutual" || last.RiskTier != "high" || last.Source != read.PIUnlistedSource {
		t.Errorf("the base's unlisted insurer: %+v", last)
	}
	expect(send("", http.MethodGet, "/v1/pi-clubs", "", ""), 401, "")

	// A text/csv import by alice.
	file := "imo,club,vessel_name,effective_from,effective_to\n" +
		"9321483,Gard P. & I.,ALPHA,2024-02-20,2025-02-20\n" + // replaces the base record for alice
		"9321483,North of England P&I Association,ALPHA,2025-02-20,\n" +
		"9321484,Gard,BAD CHECK DIGIT,2024-02-20,\n" +
		"9074729,Acme Cover Ltd,BETA,02/20/2024,\n" +
		"9074729,Acme Cover Ltd,BETA,2024-02-20,\n"
	r = send(alice, http.MethodPost, "/v1/pi-coverage/import", "text/csv", file)
	expect(r, 200, "")
	var ans write.PICoverageImport
	if err := json.Unmarshal(r.Body, &ans); err != nil {
		t.Fatal(err)
	}
	if ans.RowsProcessed != 5 || ans.Matched != 2 || ans.Stored != 3 || ans.RejectedCount != 2 ||
		strings.Join(ans.UnmatchedClubs, "|") != "Acme Cover Ltd" {
		t.Fatalf("import answer %+v", ans)
	}
	if ans.Rejected[0].Line != 4 || !strings.Contains(ans.Rejected[0].Reason, "check digit") ||
		ans.Rejected[1].Line != 5 || !strings.Contains(ans.Rejected[1].Reason, "unknown date format") {
		t.Errorf("rejected %+v", ans.Rejected)
	}

	// The same as multipart, by bob, for another vessel.
	var mp bytes.Buffer
	w := multipart.NewWriter(&mp)
	part, _ := w.CreateFormFile("file", "cover.csv")
	part.Write([]byte("imo;club;effective_from\n9074729;Standard Club;2023-02-20\n"))
	w.Close()
	r = send(bob, http.MethodPost, "/v1/pi-coverage/import", w.FormDataContentType(), mp.String())
	expect(r, 200, `"matched":1`)

	// Tenancy: alice sees her records over the base, bob the base only.
	coverage := func(key, query string) piCoverageAPI {
		t.Helper()
		r := send(key, http.MethodGet, "/v1/pi-coverage?"+query, "", "")
		expect(r, 200, "")
		var out piCoverageAPI
		if err := json.Unmarshal(r.Body, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	a := coverage(alice, "vessel=9321483")
	if len(a.Coverage) != 2 || a.Coverage[0].Source != "own" || *a.Coverage[0].ClubID != "northstandard" ||
		a.Coverage[1].Source != "own" || *a.Coverage[1].ClubID != "gard" || *a.Coverage[1].VesselName != "ALPHA" {
		t.Errorf("alice's coverage %+v", a.Coverage)
	}
	if !a.Assessment.GroupCover || a.Assessment.RiskTier == nil || *a.Assessment.RiskTier != "low" {
		t.Errorf("alice's assessment %+v", a.Assessment)
	}
	b := coverage(bob, "vessel=9321483")
	if len(b.Coverage) != 1 || b.Coverage[0].Source != "e2e base" || *b.Coverage[0].VesselName != "BASE NAME" || b.Coverage[0].Current {
		t.Errorf("bob's coverage %+v", b.Coverage)
	}
	if b.Assessment.RiskTier != nil {
		t.Errorf("bob's assessment %+v (no current record)", b.Assessment)
	}
	ab := coverage(alice, "vessel=9074729")
	if len(ab.Coverage) != 2 || ab.Coverage[1].Source != "e2e base" || ab.Coverage[1].Current || ab.Coverage[0].ClubID != nil || ab.Coverage[0].RiskTier != "high" || ab.Assessment.GroupCover ||
		ab.Assessment.RiskTier == nil || *ab.Assessment.RiskTier != "high" {
		t.Errorf("alice's unmatched insurer %+v %+v", ab.Coverage, ab.Assessment)
	}
	if bb := coverage(bob, "vessel=9074729"); len(bb.Coverage) != 2 || *bb.Coverage[0].ClubID != "northstandard" || bb.Coverage[0].Source != "own" {
		t.Errorf("bob's own record %+v", bb.Coverage)
	}

	// Without vessel, every vessel's records, layered alike, by IMO.
	list := func(key, query string) string {
		t.Helper()
		got := coverage(key, query)
		if got.Vessel != nil || got.Assessment != nil {
			t.Errorf("%s: a list with vessel %v, assessment %+v", query, got.Vessel, got.Assessment)
		}
		var rows []string
		for _, c := range got.Coverage {
			id := "-"
			if c.ClubID != nil {
				id = *c.ClubID
			}
			rows = append(rows, c.IMO+" "+id+" "+c.Source)
		}
		return strings.Join(rows, ", ")
	}
	if got, want := list(alice, ""), "9074729 - own, 9074729 - e2e base, 9321483 northstandard own, 9321483 gard own"; got != want {
		t.Errorf("alice's list: %s, want %s", got, want)
	}
	if got, want := list(alice, "limit=3"), "9074729 - own, 9074729 - e2e base, 9321483 northstandard own"; got != want {
		t.Errorf("alice's list of 3: %s, want %s", got, want)
	}
	if got, want := list(bob, ""), "9074729 northstandard own, 9074729 - e2e base, 9321483 gard e2e base"; got != want {
		t.Errorf("bob's list: %s, want %s", got, want)
	}

	// An account's unmatched insurer is never listed for anyone.
	if r := send(bob, http.MethodGet, "/v1/pi-clubs", "", ""); strings.Contains(string(r.Body), "Acme") || !strings.Contains(string(r.Body), "Sea Shield") {
		t.Errorf("/pi-clubs lists an account's insurer, or not the base's: %s", r.Body)
	}

	// Refusals.
	expect(send(alice, http.MethodGet, "/v1/pi-coverage?vessel=9321484", "", ""), 400, "vessel")
	expect(send(alice, http.MethodGet, "/v1/pi-coverage?vessel=9321483&limit=0", "", ""), 400, "limit")
	expect(send("", http.MethodGet, "/v1/pi-coverage?vessel=9321483", "", ""), 401, "")
	expect(send(alice, http.MethodPost, "/v1/pi-coverage/import", "application/json", `{"imo":"9321483"}`), 400, "Content-Type")
	expect(send(alice, http.MethodPost, "/v1/pi-coverage/import", "text/csv", "imo,vessel_name\n9321483,X\n"), 400, "club")
	// A file of about 3 MB is read whole; over 10 MiB is a 413.
	big := "imo,club\n" + strings.Repeat("9321483,Gard\n", 3_000_000/13)
	expect(send(alice, http.MethodPost, "/v1/pi-coverage/import", "text/csv", big), 200, `"stored":1,`)
	// A file over 10 MiB, sent whole (within the route's body bound, which
	// leaves room for multipart framing): the handler's 413; a body
	// announced over the route's bound: the edge's 413 before any byte of
	// it is read.
	huge := "imo,club\n" + strings.Repeat("9321483,Gard\n", write.MaxPICoverageBody/13+1)
	expect(send(alice, http.MethodPost, "/v1/pi-coverage/import", "text/csv", huge), 413, "")
	head := fmt.Sprintf("POST /v1/pi-coverage/import HTTP/1.1\r\nHost: x\r\nX-API-Key: %s\r\nContent-Type: text/csv\r\nContent-Length: %d\r\n\r\n",
		alice, write.MaxPICoverageUpload+1)
	if status, _, body := rawExchange(t, s, head, 0); status != 413 || !isErrorJSON(body) {
		t.Errorf("over the route's body bound: %d %s", status, body)
	}
}
