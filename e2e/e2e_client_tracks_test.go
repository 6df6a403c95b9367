package e2e

import (
	"context"
	"fmt"
	"testing"

	"overwatch/apptest"
	"overwatch/client"
)

// callClientTracks calls the reads of stored positions through the
// generated client: the vessel's track, the tracks of a list, who was in a
// box around its last fix, and the search by its IMO number.
func callClientTracks(ctx context.Context, t *testing.T, c *client.ClientWithResponses, imo string) {
	tr, err := c.GetVesselTrackWithResponse(ctx, imo, &client.GetVesselTrackParams{})
	if !wantStatus(t, "vessel track", tr, err, 200) || len(tr.JSON200.Fixes) == 0 || tr.JSON200.ImoNumber != imo {
		t.Fatalf("vessel track of %s: %.300s", imo, tr.Body)
	}
	last := tr.JSON200.Fixes[len(tr.JSON200.Fixes)-1]
	if last.Latitude == nil || last.Longitude == nil || last.Segment < 1 || last.Source == nil {
		t.Errorf("vessel track's last fix: %+v", last)
	}
	many, err := c.ListTracksWithResponse(ctx, &client.ListTracksParams{Imo: imo, Interval: apptest.Ptr(60)})
	if wantStatus(t, "tracks", many, err, 200) && (len(many.JSON200.Tracks) != 1 || len(many.JSON200.Tracks[0].Fixes) == 0 ||
		len(many.JSON200.Tracks[0].Fixes) > len(tr.JSON200.Fixes)) {
		t.Errorf("tracks of %s: %.300s", imo, many.Body)
	}
	box := fmt.Sprintf("%.4f,%.4f,%.4f,%.4f", *last.Longitude-0.01, *last.Latitude-0.01, *last.Longitude+0.01, *last.Latitude+0.01)
	area, err := c.ListAreaVesselsWithResponse(ctx, &client.ListAreaVesselsParams{Bbox: &box})
	if wantStatus(t, "area vessels", area, err, 200) {
		found := false
		for _, v := range area.JSON200.Vessels {
			found = found || v.ImoNumber == imo && v.Fixes > 0
		}
		if !found {
			t.Errorf("area vessels in %s: %s missing: %.300s", box, imo, area.Body)
		}
	}
	search, err := c.SearchVesselsWithResponse(ctx, &client.SearchVesselsParams{Q: imo})
	if wantStatus(t, "vessel search", search, err, 200) && (len(search.JSON200.Vessels) == 0 ||
		search.JSON200.Vessels[0].ImoNumber != imo || search.JSON200.Vessels[0].Matched.Field != "imo") {
		t.Errorf("search for %s: %.300s", imo, search.Body)
	}
}
