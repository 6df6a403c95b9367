package e2e

import (
	"context"
	"fmt"
	"overwatch/apptest"
	"strconv"
	"testing"
	"time"

	"overwatch/client"
	"overwatch/testclock"

	openapi_types "github.com/oapi-codegen/runtime/types"
)

// callClientAccount calls the operations on what an account owns through
// the client: keys, the watchlist, portfolios, alert states, webhooks (to
// hookURL, a local endpoint) and freight-rate contributions, each created,
// read and removed.
func callClientAccount(ctx context.Context, t *testing.T, c *client.ClientWithResponses, hookURL, imo, port string) {
	// Keys: a second key is created, listed and revoked.
	ck, err := c.CreateKeyWithResponse(ctx, client.CreateKeyJSONRequestBody{Name: apptest.Ptr("client test")})
	if wantStatus(t, "create key", ck, err, 201) && ck.JSON201.ApiKey == "" {
		t.Errorf("create key: %s", ck.Body)
	}
	keys, err := c.ListKeysWithResponse(ctx)
	if wantStatus(t, "keys", keys, err, 200) && ck.JSON201 != nil {
		found := false
		for _, k := range keys.JSON200.Keys {
			found = found || k.Id == ck.JSON201.Id
		}
		if !found {
			t.Errorf("keys: the new key %d is not listed: %s", ck.JSON201.Id, keys.Body)
		}
	}
	if ck.JSON201 != nil {
		rk, err := c.RevokeKeyWithResponse(ctx, ck.JSON201.Id)
		wantStatus(t, "revoke key", rk, err, 200)
	}

	// The watchlist: replaced, read, a port and a vessel added and removed.
	pw, err := c.PutWatchlistWithResponse(ctx, client.PutWatchlistJSONRequestBody{Vessels: []string{imo}, Ports: []string{}})
	wantStatus(t, "put watchlist", pw, err, 200)
	ap, err := c.AddWatchedPortWithResponse(ctx, port)
	wantStatus(t, "watch port", ap, err, 200)
	gw, err := c.GetWatchlistWithResponse(ctx)
	if wantStatus(t, "watchlist", gw, err, 200) && (fmt.Sprint(gw.JSON200.Watchlist.Vessels) != "["+imo+"]" || fmt.Sprint(gw.JSON200.Watchlist.Ports) != "["+port+"]") {
		t.Errorf("watchlist: %s, want %s and %s", gw.Body, imo, port)
	}
	rp, err := c.RemoveWatchedPortWithResponse(ctx, port)
	wantStatus(t, "unwatch port", rp, err, 200)
	rv, err := c.RemoveWatchedVesselWithResponse(ctx, imo)
	wantStatus(t, "unwatch vessel", rv, err, 200)
	av, err := c.AddWatchedVesselWithResponse(ctx, imo)
	wantStatus(t, "watch vessel", av, err, 200)

	// Portfolios.
	cp, err := c.CreatePortfolioWithResponse(ctx, client.CreatePortfolioJSONRequestBody{Name: "client test", Vessels: &[]string{imo}, Ports: &[]string{port}})
	if wantStatus(t, "create portfolio", cp, err, 201) {
		id := cp.JSON201.Portfolio.Id
		lp, err := c.ListPortfoliosWithResponse(ctx)
		wantStatus(t, "portfolios", lp, err, 200)
		gp, err := c.GetPortfolioWithResponse(ctx, id)
		if wantStatus(t, "portfolio", gp, err, 200) && gp.JSON200.Portfolio.Id != id {
			t.Errorf("portfolio %s: %s", id, gp.Body)
		}
		dp, err := c.DeletePortfolioWithResponse(ctx, id)
		wantStatus(t, "delete portfolio", dp, err, 200)
		gone, err := c.GetPortfolioWithResponse(ctx, id)
		wantStatus(t, "a deleted portfolio", gone, err, 404)
	}

	// The unified alerts, and a state change on one of them.
	ua, err := c.UnifiedAlertsWithResponse(ctx, &client.UnifiedAlertsParams{})
	if wantStatus(t, "unified alerts", ua, err, 200) {
		if len(ua.JSON200.Alerts) == 0 {
			t.Errorf("unified alerts: none for a watched vessel and the fleet's risk events: %s", ua.Body)
		} else {
			alert := ua.JSON200.Alerts[0].AlertId
			ss, err := c.SetAlertStateWithResponse(ctx, &client.SetAlertStateParams{},
				client.SetAlertStateJSONRequestBody{AlertId: &alert, Action: apptest.Ptr(client.SetAlertStateJSONBodyActionRead)})
			wantStatus(t, "alert state", ss, err, 200)
		}
	}

	// Webhooks.
	cw, err := c.CreateWebhookWithResponse(ctx, client.CreateWebhookJSONRequestBody{Url: hookURL + "/hook",
		EventTypes: []client.CreateWebhookJSONBodyEventTypes{client.CreateWebhookJSONBodyEventTypesTest}})
	if wantStatus(t, "create webhook", cw, err, 201) {
		id := cw.JSON201.Webhook.Id
		lw, err := c.ListWebhooksWithResponse(ctx)
		wantStatus(t, "webhooks", lw, err, 200)
		ld, err := c.ListDeliveriesWithResponse(ctx, id, &client.ListDeliveriesParams{})
		wantStatus(t, "deliveries", ld, err, 200)
		pa, err := c.PauseWebhookWithResponse(ctx, id)
		wantStatus(t, "pause webhook", pa, err, 200)
		re, err := c.ResumeWebhookWithResponse(ctx, id)
		wantStatus(t, "resume webhook", re, err, 200)
		dw, err := c.DeleteWebhookWithResponse(ctx, id)
		wantStatus(t, "delete webhook", dw, err, 200)
	}
	sl, err := c.SlackTestWithResponse(ctx, client.SlackTestJSONRequestBody{Url: hookURL + "/chat", Message: apptest.Ptr("client test")})
	if wantStatus(t, "slack test", sl, err, 200) && !sl.JSON200.Success {
		t.Errorf("slack test: %s", sl.Body)
	}

	// Freight-rate contributions.
	sf, err := c.SubmitFreightRateWithResponse(ctx, client.SubmitFreightRateJSONRequestBody{
		Date: openapi_types.Date{Time: testclock.Now().UTC().AddDate(0, 0, -1).Truncate(24 * time.Hour)}, Origin: port, Destination: "rotterdam",
		Rate: 42.5, Unit: client.UsdPerTonne, VesselType: client.FreightVesselTypePanamax})
	if wantStatus(t, "submit freight rate", sf, err, 201) {
		lf, err := c.ListFreightRatesWithResponse(ctx, &client.ListFreightRatesParams{})
		wantStatus(t, "freight rates", lf, err, 200)
		if id := sf.JSON201.FreightRate.Id; id == nil {
			t.Errorf("submit freight rate: no id: %s", sf.Body)
		} else {
			df, err := c.DeleteFreightRateWithResponse(ctx, *id)
			wantStatus(t, "delete freight rate "+strconv.Itoa(*id), df, err, 200)
		}
	}
	da, err := c.DeleteFreightRatesWithResponse(ctx)
	wantStatus(t, "delete freight rates", da, err, 200)
}
