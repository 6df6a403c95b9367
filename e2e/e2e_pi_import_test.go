package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"overwatch"
	"overwatch/apptest"
	"overwatch/write"
	"strings"
	"testing"
)

// The coverage import says what is wrong with an upload it cannot take,
// naming the column, the part or the value: a column named twice, a
// multipart part not named "file", a second file part, a multipart body
// cut before its closing boundary; a date in an accepted format but
// outside the years a cover can run (0001-01-01) rejects its row as out
// of range, not as an unknown format.
func TestPICoverageImportIsStrict(t *testing.T) {
	s := apptest.StartServer(t, nil)
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanStarter)
	expect := apptest.Expecter(t)
	upload := func(contentType, body string) apptest.Response {
		t.Helper()
		return s.Do(t, apptest.Request{Method: http.MethodPost, Path: "/v1/pi-coverage/import", IP: apptest.FreshIP(), Key: key,
			Header: map[string]string{"Content-Type": contentType}, Body: body})
	}
	multipartOf := func(parts ...[2]string) (string, string) {
		var b bytes.Buffer
		w := multipart.NewWriter(&b)
		for _, p := range parts {
			h := textproto.MIMEHeader{}
			h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename="cover.csv"`, p[0]))
			h.Set("Content-Type", "text/csv")
			part, _ := w.CreatePart(h)
			part.Write([]byte(p[1])) //nolint:errcheck
		}
		w.Close()
		return w.FormDataContentType(), b.String()
	}
	const good = "imo,club\n9321483,Gard\n"
	parameter := func(r apptest.Response) string {
		var e struct {
			Parameter string `json:"parameter"`
		}
		json.Unmarshal(r.Body, &e) //nolint:errcheck
		return e.Parameter
	}

	r := upload("text/csv", "imo,club,IMO\n9321483,Gard,9074729\n")
	expect(r, 400, `the header row names the column \"imo\" twice (columns 1 and 3)`)
	expect(upload("text/csv", "imo,club,vessel_name,Vessel_Name\n9321483,Gard,A,B\n"), 400, `column \"vessel_name\" twice`)
	// Columns the import ignores may repeat (empty trailing cells of a
	// spreadsheet's export).
	expect(upload("text/csv", "imo,club,,\n9321483,Gard,,\n"), 200, `"stored":1`)

	ct, body := multipartOf([2]string{"upload", good})
	r = upload(ct, body)
	expect(r, 400, `part \"upload\"`)
	if parameter(r) != "upload" {
		t.Errorf("a part not named file: parameter %q", parameter(r))
	}
	ct, body = multipartOf([2]string{"file", good}, [2]string{"notes", "x"})
	expect(upload(ct, body), 400, `part \"notes\"`)
	ct, body = multipartOf([2]string{"file", good}, [2]string{"file", "imo,club\n9074729,Skuld\n"})
	expect(upload(ct, body), 400, `more than one part \"file\"`)
	ct, body = multipartOf([2]string{"file", good})
	expect(upload(ct, body[:strings.LastIndex(body, "--")]), 400, "ends before its closing boundary")
	expect(upload(ct, body[:len(body)/2]), 400, "ends before its closing boundary")
	expect(upload(ct, ""), 400, "ends before its closing boundary")
	expect(upload("multipart/form-data", body), 400, "boundary")
	expect(upload(ct, body), 200, `"stored":1`)

	r = upload("text/csv", "imo,club,effective_from,effective_to\n9321483,Gard,0001-01-01,2026-02-20\n9074729,Skuld,2025-02-20,31/02/2026\n")
	var ans write.PICoverageImport
	if err := json.Unmarshal(r.Body, &ans); r.StatusCode != 200 || err != nil || ans.RejectedCount != 2 ||
		ans.Rejected[0].Reason != "date 0001-01-01 in column effective_from is out of range (years 1900 to 2100)" ||
		!strings.Contains(ans.Rejected[1].Reason, "effective_to \"31/02/2026\": unknown date format") {
		t.Errorf("dates: %d %s", r.StatusCode, r.Body)
	}
}
