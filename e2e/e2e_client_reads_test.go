package e2e

import (
	"context"
	"fmt"
	"math"
	"overwatch/apptest"
	"overwatch/client"
	"overwatch/maritime/seaport"
	"strings"
	"testing"
)

// callClientReads calls the analytics, risk, market and service operations
// through the client with a port and a vessel of the simulated fleet (of
// fleetSize vessels), and returns them.
func callClientReads(ctx context.Context, t *testing.T, c *client.ClientWithResponses, fleetSize int) (imo, port string) {
	ports, err := c.ListPortsWithResponse(ctx)
	if wantStatus(t, "ports", ports, err, 200) && len(ports.JSON200.Ports) != len(seaport.All()) {
		t.Errorf("ports: %d, want %d", len(ports.JSON200.Ports), len(seaport.All()))
	}
	// The busiest port and a vessel with a position.
	cong, err := c.GetCongestionWithResponse(ctx, &client.GetCongestionParams{})
	port = "rotterdam"
	most := -1
	if wantStatus(t, "congestion", cong, err, 200) {
		for _, p := range cong.JSON200.Congestion {
			if p.InPort > most {
				port, most = p.Port, p.InPort
			}
		}
	}
	fleet, err := c.ListFleetPositionsWithResponse(ctx, &client.ListFleetPositionsParams{Limit: apptest.Ptr(500)})
	if !wantStatus(t, "fleet positions", fleet, err, 200) || len(fleet.JSON200.Positions) == 0 {
		t.Fatalf("no vessel positions: %s", fleet.Body)
	}
	if fleet.JSON200.Total < len(fleet.JSON200.Positions) || fleet.JSON200.Total > fleetSize {
		t.Errorf("fleet positions: total %d for %d positions of a %d-vessel fleet", fleet.JSON200.Total, len(fleet.JSON200.Positions), fleetSize)
	}
	imo = fleet.JSON200.Positions[0].ImoNumber
	pos := fleet.JSON200.Positions[0]

	latest, err := c.GetLatestPositionWithResponse(ctx, "any", imo)
	// The fleet keeps sailing in real time: the position may have moved on.
	if wantStatus(t, "latest position", latest, err, 200) && (latest.JSON200.ImoNumber != imo || pos.Latitude == nil ||
		math.Abs(*pos.Latitude-latest.JSON200.Latitude) > 1) {
		t.Errorf("latest position of %s: %s, fleet says %+v", imo, latest.Body, pos)
	}
	pre, err := c.PreflightLatestPositionWithResponse(ctx, "any", imo)
	wantStatus(t, "preflight", pre, err, 204)
	badPort, err := c.ListVesselsWithResponse(ctx, &client.ListVesselsParams{Port: apptest.Ptr("atlantis")})
	if wantStatus(t, "vessels at an unknown port", badPort, err, 400) && (badPort.JSON400.Parameter == nil || *badPort.JSON400.Parameter != "port") {
		t.Errorf("vessels at an unknown port: %s", badPort.Body)
	}
	vessels, err := c.ListVesselsWithResponse(ctx, &client.ListVesselsParams{Port: &port})
	if wantStatus(t, "vessels", vessels, err, 200) && most > 0 && len(vessels.JSON200.Vessels) == 0 {
		t.Errorf("vessels at %s: none, congestion counts %d in port", port, most)
	}
	positions, err := c.ListPortPositionsWithResponse(ctx, &client.ListPortPositionsParams{Port: port})
	wantStatus(t, "positions", positions, err, 200)
	health, err := c.GetHealthWithResponse(ctx)
	wantStatus(t, "health", health, err, 200)
	oa, err := c.GetOpenAPIWithResponse(ctx)
	if wantStatus(t, "openapi", oa, err, 200) && (*oa.JSON200)["paths"] == nil {
		t.Errorf("openapi.json has no paths")
	}

	// Port analytics.
	hist, err := c.GetCongestionHistoryWithResponse(ctx, &client.GetCongestionHistoryParams{Port: port, Days: apptest.Ptr(30)})
	wantStatus(t, "congestion history", hist, err, 200)
	refresh, err := c.RefreshCongestionWithResponse(ctx)
	wantStatus(t, "congestion refresh", refresh, err, 200)
	berths, err := c.GetBerthUtilizationWithResponse(ctx, &client.GetBerthUtilizationParams{Port: &port})
	wantStatus(t, "berth utilization", berths, err, 200)
	weekly, err := c.GetBerthUtilizationWeeklyWithResponse(ctx, &client.GetBerthUtilizationWeeklyParams{Port: port})
	wantStatus(t, "berth utilization weekly", weekly, err, 200)
	age, err := c.GetFleetAgeWithResponse(ctx, &client.GetFleetAgeParams{Port: &port})
	wantStatus(t, "fleet age", age, err, 200)
	ageCSV := client.GetFleetAgeParamsFormat("csv")
	ageFile, err := c.GetFleetAgeWithResponse(ctx, &client.GetFleetAgeParams{Port: &port, Format: &ageCSV})
	if wantCSV(t, "fleet age as CSV", ageFile, err) && age.JSON200 != nil && len(age.JSON200.FleetAge) == 1 {
		// A row per age bucket, each with the JSON's figures.
		lines := strings.Split(strings.TrimSpace(string(ageFile.Body)), "\r\n")
		item := age.JSON200.FleetAge[0]
		if len(lines) != 1+len(item.Buckets) || !strings.HasPrefix(lines[0], "port,port_name,vessel_type,") {
			t.Errorf("fleet age CSV, %d buckets in JSON:\n%s", len(item.Buckets), ageFile.Body)
		}
		for i, b := range item.Buckets {
			if i+1 < len(lines) && !strings.Contains(lines[i+1], ","+string(b.Bucket)+","+fmt.Sprint(b.Vessels)+",") {
				t.Errorf("fleet age CSV row %d %q, want bucket %s with %d vessels", i+1, lines[i+1], b.Bucket, b.Vessels)
			}
		}
	}
	ageHist, err := c.GetFleetAgeHistoryWithResponse(ctx, &client.GetFleetAgeHistoryParams{Port: port})
	wantStatus(t, "fleet age history", ageHist, err, 200)
	est, err := c.ListEstimatesWithResponse(ctx, &client.ListEstimatesParams{Port: &port})
	wantStatus(t, "estimates", est, err, 200)
	rel, err := c.ListDestinationReliabilityWithResponse(ctx, &client.ListDestinationReliabilityParams{})
	wantStatus(t, "destination reliability", rel, err, 200)
	cal, err := c.GetCalibrationWithResponse(ctx)
	wantStatus(t, "calibration", cal, err, 200)
	csv, err := c.ExportCSVWithResponse(ctx, &client.ExportCSVParams{Port: &port})
	if wantStatus(t, "export", csv, err, 200) && !strings.Contains(csv.HTTPResponse.Header.Get("Content-Type"), "text/csv") {
		t.Errorf("export: %s", csv.HTTPResponse.Header.Get("Content-Type"))
	}
	fc, err := c.ListForecastsWithResponse(ctx, &client.ListForecastsParams{})
	wantStatus(t, "forecasts", fc, err, 200)
	acc, err := c.ForecastAccuracyWithResponse(ctx, &client.ForecastAccuracyParams{})
	wantStatus(t, "forecast accuracy", acc, err, 200)
	an, err := c.ListAnomaliesWithResponse(ctx, &client.ListAnomaliesParams{})
	wantStatus(t, "anomalies", an, err, 200)
	mat, err := c.AnomalyMaturityWithResponse(ctx)
	wantStatus(t, "anomaly maturity", mat, err, 200)

	callClientRisk(ctx, t, c, imo)
	callClientMarket(ctx, t, c, imo, port)
	return imo, port
}

// callClientRisk calls the risk operations for the fleet and a vessel.
func callClientRisk(ctx context.Context, t *testing.T, c *client.ClientWithResponses, imo string) {
	rv, err := c.ListRiskVesselsWithResponse(ctx, &client.ListRiskVesselsParams{})
	if wantStatus(t, "risk vessels", rv, err, 200) && len(rv.JSON200.Vessels) == 0 {
		t.Errorf("risk vessels: none scored")
	}
	if rv != nil && rv.JSON200 != nil && len(rv.JSON200.Vessels) > 0 {
		imo = rv.JSON200.Vessels[0].Imo
	}
	prof, err := c.GetRiskVesselWithResponse(ctx, imo)
	if wantStatus(t, "risk vessel", prof, err, 200) && prof.JSON200.Vessel.Imo != imo {
		t.Errorf("risk vessel %s: %s", imo, prof.Body)
	}
	ev, err := c.ListRiskEventsWithResponse(ctx, &client.ListRiskEventsParams{})
	wantStatus(t, "risk events", ev, err, 200)
	hs, err := c.ListRiskHotspotsWithResponse(ctx, &client.ListRiskHotspotsParams{Active: apptest.Ptr(false)})
	wantStatus(t, "risk hotspots", hs, err, 200)
	bl, err := c.ListRiskBaselinesWithResponse(ctx)
	wantStatus(t, "risk baselines", bl, err, 200)
	id, err := c.ListIdentityChangesWithResponse(ctx, &client.ListIdentityChangesParams{})
	wantStatus(t, "identity changes", id, err, 200)
	ih, err := c.GetIdentityHistoryWithResponse(ctx, &client.GetIdentityHistoryParams{Vessel: imo})
	wantStatus(t, "identity history", ih, err, 200)
	lo, err := c.ListLoiteringWithResponse(ctx, &client.ListLoiteringParams{})
	wantStatus(t, "loitering", lo, err, 200)
	mm, err := c.ListDraughtMismatchesWithResponse(ctx, &client.ListDraughtMismatchesParams{})
	wantStatus(t, "draught mismatches", mm, err, 200)
	st, err := c.GetRiskStatsWithResponse(ctx)
	wantStatus(t, "risk stats", st, err, 200)
	sts, err := c.ListSTSTransfersWithResponse(ctx, &client.ListSTSTransfersParams{})
	wantStatus(t, "sts transfers", sts, err, 200)
	stss, err := c.GetSTSStatsWithResponse(ctx)
	wantStatus(t, "sts stats", stss, err, 200)
	al, err := c.ListAlertsWithResponse(ctx, &client.ListAlertsParams{})
	wantStatus(t, "alerts", al, err, 200)
	dec, err := c.ListRouteDeceptionsWithResponse(ctx, &client.ListRouteDeceptionsParams{})
	wantStatus(t, "route deceptions", dec, err, 200)
	fl, err := c.ListRouteFlowsWithResponse(ctx, &client.ListRouteFlowsParams{})
	wantStatus(t, "route flows", fl, err, 200)
	sh, err := c.ListRouteShiftsWithResponse(ctx, &client.ListRouteShiftsParams{})
	wantStatus(t, "route shifts", sh, err, 200)
	sar, err := c.GetSARCoverageWithResponse(ctx, &client.GetSARCoverageParams{Lat: 51.95, Lng: 4.05})
	wantStatus(t, "sar coverage", sar, err, 200)
	dis, err := c.ListDisruptionsWithResponse(ctx, &client.ListDisruptionsParams{})
	wantStatus(t, "disruptions", dis, err, 200)
	clubs, err := c.ListPIClubsWithResponse(ctx)
	wantStatus(t, "pi clubs", clubs, err, 200)
	imp, err := c.ImportPICoverageWithBodyWithResponse(ctx, "text/csv",
		strings.NewReader("imo,club,effective_from\n"+imo+",Gard P. & I.,2025-02-20\n"))
	if wantStatus(t, "pi coverage import", imp, err, 200) && imp.JSON200.Stored != 1 {
		t.Errorf("pi coverage import: %s", imp.Body)
	}
	cov, err := c.GetPICoverageWithResponse(ctx, &client.GetPICoverageParams{Vessel: &imo})
	wantStatus(t, "pi coverage", cov, err, 200)
	covAll, err := c.GetPICoverageWithResponse(ctx, &client.GetPICoverageParams{})
	if wantStatus(t, "pi coverage of every vessel", covAll, err, 200) && (covAll.JSON200.Vessel != nil || len(covAll.JSON200.Coverage) == 0) {
		t.Errorf("pi coverage of every vessel: %s", covAll.Body)
	}
}

// callClientMarket calls the market, emissions, trade and terminal
// operations.
func callClientMarket(ctx context.Context, t *testing.T, c *client.ClientWithResponses, imo, port string) {
	em, err := c.ListEmissionsWithResponse(ctx, &client.ListEmissionsParams{})
	wantStatus(t, "emissions", em, err, 200)
	rep, err := c.EmissionsReportWithResponse(ctx, &client.EmissionsReportParams{Entity: apptest.Ptr("Client Test")})
	wantStatus(t, "emissions report", rep, err, 200)
	cp, err := c.ListCommodityPricesWithResponse(ctx, &client.ListCommodityPricesParams{})
	wantStatus(t, "commodity prices", cp, err, 200)
	td, err := c.ListTransportDataWithResponse(ctx, &client.ListTransportDataParams{})
	wantStatus(t, "transport data", td, err, 200)
	ea, err := c.ListEarningsWithResponse(ctx, &client.ListEarningsParams{})
	wantStatus(t, "earnings", ea, err, 200)
	pr, err := c.ListPortRevenueWithResponse(ctx, &client.ListPortRevenueParams{Port: &port})
	wantStatus(t, "port revenue", pr, err, 200)
	tf, err := c.GetTradeFlowsWithResponse(ctx, &client.GetTradeFlowsParams{})
	wantStatus(t, "trade flows", tf, err, 200)
	entity := client.Entity
	tfv, err := c.GetTradeFlowsWithResponse(ctx, &client.GetTradeFlowsParams{View: &entity, Imo: &imo})
	wantStatus(t, "trade flows of a vessel", tfv, err, 200)
	tfe, err := c.GetTradeFlowsWithResponse(ctx, &client.GetTradeFlowsParams{View: &entity})
	wantStatus(t, "trade flows' entities by risk", tfe, err, 200)
	rl, err := c.GetRiverLevelsWithResponse(ctx, &client.GetRiverLevelsParams{})
	wantStatus(t, "river levels", rl, err, 200)
	riverCSV := client.GetRiverLevelsParamsFormat("csv")
	rlFile, err := c.GetRiverLevelsWithResponse(ctx, &client.GetRiverLevelsParams{Format: &riverCSV})
	if wantCSV(t, "river levels as CSV", rlFile, err) && rl.JSON200 != nil {
		lines := strings.Split(strings.TrimSpace(string(rlFile.Body)), "\r\n")
		if len(lines) != 1+len(rl.JSON200.Readings) || !strings.HasPrefix(lines[0], "gauge,name,river,") {
			t.Errorf("river levels CSV, %d readings in JSON:\n%s", len(rl.JSON200.Readings), rlFile.Body)
		}
	}
	regions, err := c.ListCropRegionsWithResponse(ctx)
	wantStatus(t, "crop regions", regions, err, 200)
	ch, err := c.ListCropHealthWithResponse(ctx, &client.ListCropHealthParams{})
	wantStatus(t, "crop health", ch, err, 200)
	cprod, err := c.ListCropProductionWithResponse(ctx, &client.ListCropProductionParams{})
	wantStatus(t, "crop production", cprod, err, 200)
	lng, err := c.GetLNGDashboardWithResponse(ctx)
	wantStatus(t, "lng", lng, err, 200)
	lngt, err := c.GetLNGTerminalsWithResponse(ctx)
	wantStatus(t, "lng terminals", lngt, err, 200)
	mi, err := c.GetMiningDashboardWithResponse(ctx)
	wantStatus(t, "mining", mi, err, 200)
	mit, err := c.GetMiningTerminalsWithResponse(ctx)
	wantStatus(t, "mining terminals", mit, err, 200)
}
