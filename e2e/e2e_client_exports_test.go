package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"overwatch/apptest"
	"overwatch/client"
)

// callClientExports calls the bulk feed through the generated client: an
// export of the vessel's positions as CSV, its status until completed,
// the account's list, and the download, whole and resumed.
func callClientExports(ctx context.Context, t *testing.T, c *client.ClientWithResponses, imo string) {
	var body client.CreateExportJSONRequestBody
	if err := json.Unmarshal([]byte(`{"dataset":"positions","format":"csv","filters":{"imo":["`+imo+`"]}}`), &body); err != nil {
		t.Fatal(err)
	}
	created, err := c.CreateExportWithResponse(ctx, body)
	if !wantStatus(t, "create export", created, err, 202) {
		return
	}
	id := created.JSON202.Export.Id
	var status *client.GetExportResponse
	apptest.Eventually(t, 120*time.Second, "export "+id, func() bool {
		status, err = c.GetExportWithResponse(ctx, id)
		return wantStatus(t, "export", status, err, 200) && (status.JSON200.Export.Status == client.Completed || status.JSON200.Export.Status == client.Failed)
	})
	if e := status.JSON200.Export; e.Status != client.Completed || e.Rows == nil || *e.Rows == 0 {
		t.Fatalf("export: %.300s", status.Body)
	}
	list, err := c.ListExportsWithResponse(ctx)
	if wantStatus(t, "exports", list, err, 200) && (len(list.JSON200.Exports) == 0 || list.JSON200.Exports[0].Id != id) {
		t.Errorf("exports: %.300s", list.Body)
	}
	whole, err := c.DownloadExportWithResponse(ctx, id, &client.DownloadExportParams{})
	if !wantStatus(t, "download export", whole, err, 200) || !strings.HasPrefix(string(whole.Body), "imo,mmsi,timestamp,") {
		t.Fatalf("download: %.300s", whole.Body)
	}
	part, err := c.DownloadExportWithResponse(ctx, id, &client.DownloadExportParams{Range: apptest.Ptr("bytes=10-")})
	if wantStatus(t, "download export range", part, err, 206) && string(part.Body) != string(whole.Body[10:]) {
		t.Errorf("the range's bytes differ")
	}
}
