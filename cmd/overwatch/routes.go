package main

import (
	"github.com/gofiber/fiber/v2"

	"overwatch/read"
	"overwatch/write"
)

// routes lists every route of the service. The public surface is limited
// per IP; keyed endpoints authenticate, then draw from the per-IP minute
// and the account's daily quota; /ports, /health and /billing/plans take a
// key when one is presented.
func routes(app *fiber.App, d *deps) {
	// Operations.
	app.Get("/metrics", serveMetrics(d.metrics))

	v1 := app.Group("/v1")

	// Public surface (spec §4.1).
	v1.Options("/ais/:provider/:imo/location/latest", publicPreflight)
	v1.Get("/ais/:provider/:imo/location/latest", d.limits.public(),
		read.LatestPositionHandler(d.latest, d.publisher, d.now))

	// Documentation.
	v1.Get("/openapi.json", serveOpenAPI(d.openapi))

	// Keyed surface (spec §4.2).
	v1.Options("/*", keyedPreflight)
	open := func(h fiber.Handler) []fiber.Handler {
		return []fiber.Handler{authenticate(d.pg, false), d.limits.keyed(), h}
	}
	keyed := func(h fiber.Handler) []fiber.Handler {
		return []fiber.Handler{authenticate(d.pg, true), d.limits.keyed(), h}
	}

	v1.Get("/ports", open(read.Ports())...)
	v1.Get("/health", open(read.Health(d.ch, d.pg, d.log))...)
	v1.Get("/billing/plans", open(read.Plans())...)
	v1.Get("/billing/entitlements", keyed(write.BillingEntitlements())...)
	v1.Post("/billing/checkout", keyed(write.BillingCheckout(d.billing, d.publicURL))...)
	// The payment provider's signed events: the signature authenticates.
	v1.Post("/billing/webhook", d.limits.public(), write.BillingWebhook(d.billing, d.pg, d.now))

	// Vessels and positions.
	v1.Get("/vessels", keyed(read.Vessels(d.ch, d.now))...)
	v1.Get("/positions", keyed(read.Positions(d.ch, d.now))...)
	v1.Get("/estimates", keyed(read.Estimates(d.ch, d.now))...)

	// Port analytics, from the derived tables.
	v1.Get("/congestion", keyed(read.Congestion(d.ch, d.now))...)
	v1.Get("/congestion/history", keyed(read.CongestionHistory(d.ch, d.now))...)
	v1.Post("/congestion/refresh", keyed(write.RefreshCongestion(d.refresh))...)
	v1.Get("/berth-utilization", keyed(read.BerthUtilization(d.ch, d.now))...)
	v1.Get("/berth-utilization/weekly", keyed(read.BerthWeekly(d.ch, d.now))...)
	v1.Get("/fleet-age", keyed(read.FleetAge(d.ch, d.now))...)
	v1.Get("/fleet-age/history", keyed(read.FleetAgeHistory(d.ch, d.now))...)
	v1.Get("/destination-reliability", keyed(read.DestinationReliability(d.ch, d.now))...)

	// Risk intelligence, from the risk tables the risk job writes.
	v1.Get("/risk/vessels", keyed(read.RiskVessels(d.ch))...)
	v1.Get("/risk/vessel/:imo", keyed(read.RiskVesselHandler(d.ch, d.now))...)
	v1.Get("/risk/events", keyed(read.RiskEvents(d.ch, d.now))...)
	v1.Get("/risk/stats", keyed(read.RiskStatsHandler(d.ch, d.now))...)
	v1.Get("/risk/sts", keyed(read.RiskSTS(d.ch, d.now))...)
	v1.Get("/risk/sts/stats", keyed(read.RiskSTSStats(d.ch, d.now))...)
	v1.Get("/risk/loitering", keyed(read.RiskLoitering(d.ch, d.now))...)
	v1.Get("/risk/identity", keyed(read.RiskIdentity(d.ch, d.now))...)
	v1.Get("/risk/identity/history", keyed(read.IdentityHistory(d.ch))...)
	v1.Get("/risk/mismatches", keyed(read.RiskMismatches(d.ch, d.now))...)
	v1.Get("/risk/hotspots", keyed(read.RiskHotspots(d.ch, d.now))...)
	v1.Get("/risk/baselines", keyed(read.RiskBaselines(d.ch))...)

	// Emissions, from the voyages the emissions job writes.
	v1.Get("/emissions", keyed(read.Emissions(d.ch, d.now))...)
	v1.Get("/emissions/report", keyed(read.EmissionsReport(d.ch, d.now))...)

	// Data export (CSV; Starter and above).
	v1.Get("/export", keyed(read.Export(d.ch, d.now))...)

	v1.Get("/keys", keyed(read.ListKeys(d.pg))...)
	v1.Post("/keys", keyed(write.CreateKey(d.pg))...)
	v1.Delete("/keys/:id", keyed(write.RevokeKey(d.pg, d.now))...)

	// Watchlists, portfolios and alerts (per account).
	v1.Get("/watchlist", keyed(read.GetWatchlist(d.pg))...)
	v1.Put("/watchlist", keyed(write.PutWatchlist(d.pg))...)
	v1.Put("/watchlist/vessels/:imo", keyed(write.AddWatched(d.pg, write.WatchVessel))...)
	v1.Delete("/watchlist/vessels/:imo", keyed(write.RemoveWatched(d.pg, write.WatchVessel))...)
	v1.Put("/watchlist/ports/:slug", keyed(write.AddWatched(d.pg, write.WatchPort))...)
	v1.Delete("/watchlist/ports/:slug", keyed(write.RemoveWatched(d.pg, write.WatchPort))...)
	v1.Get("/portfolios", keyed(read.ListPortfolios(d.pg))...)
	v1.Post("/portfolios", keyed(write.CreatePortfolio(d.pg))...)
	v1.Get("/portfolios/:id", keyed(read.GetPortfolio(d.pg))...)
	v1.Delete("/portfolios/:id", keyed(write.DeletePortfolio(d.pg))...)
	v1.Get("/alerts", keyed(read.ListAlerts(d.pg, d.now))...)
	v1.Get("/alerts/unified", keyed(read.UnifiedAlerts(d.pg, d.now))...)
	v1.Post("/alerts/unified/state", keyed(write.SetAlertState(d.pg, d.now))...)

	// Webhooks (Pro: real-time delivery), and the chat webhook test.
	pro := func(h fiber.Handler) []fiber.Handler {
		return []fiber.Handler{authenticate(d.pg, true), d.limits.keyed(), read.ProOnly, h}
	}
	v1.Post("/webhooks/slack-test", keyed(write.SlackTest(d.outbound))...)
	v1.Get("/webhooks", pro(read.ListWebhooks(d.pg))...)
	v1.Post("/webhooks", pro(write.CreateWebhook(d.pg, d.checkURL))...)
	v1.Delete("/webhooks/:id", pro(write.DeleteWebhook(d.pg))...)
	v1.Post("/webhooks/:id/pause", pro(write.PauseWebhook(d.pg, true))...)
	v1.Post("/webhooks/:id/resume", pro(write.PauseWebhook(d.pg, false))...)
	v1.Get("/webhooks/:id/deliveries", pro(read.ListDeliveries(d.pg))...)
}
