// Package sim is the fleet simulator: a deterministic world fleet (from a
// seed) sailing the sea lanes between the 40 reference ports, queueing at
// anchorages for busy berths, loading and discharging with the draught to
// match, and, at rates set by the caller, going dark, meeting at sea,
// loitering, changing identity, misreporting draught and destination,
// spoofing positions and sailing under sanctioned IMOs. It writes what it
// does as ground truth (JSON lines) and what the vessels transmit as AIVDM
// sentences, which go through the same ingest path as a real feed.
//
// The simulation runs in two stages. The planner is a discrete-event
// simulation of voyages and port calls (berths are multi-server FIFO queues,
// so congestion emerges from berth capacity); it produces each vessel's
// timeline of segments. The emitter walks the timelines at the AIS report
// cadence, applies reception (terrestrial providers near the coast,
// satellite providers everywhere, outages in open ocean) and noise, and
// merges the vessels' reports in time order.
//
// Two opt-in options (zero values: off, and the simulation of a seed the
// same byte for byte) serve the trade analytics over years of history.
// Config.Trade (seasons.go, trade_truths.go, deceptions.go) gives grain and
// oilseed origins harvest export seasons and a yearly trend, every origin
// preferred lanes, and injects route shifts, port-volume anomalies (port
// closures and their catch-up weeks), deceptive destinations and honest
// late changes of orders, written to the truth as route_shift,
// volume_anomaly, deceptive_destination and destination_change lines. Config.Coarse (history.go) is cheap older
// history: before Coarse.Until, a coarser report cadence (every 30
// minutes in and near port areas, up to every 3 hours at sea, every 2
// hours at anchor or alongside and once just after getting under way),
// from which the port calls are still derived, by the same code, with
// their arrival, berth, departure and draughts (about 8 positions per
// vessel and day instead of about 200). README (Seasons, years and trade
// truths) has the measured figures.
package sim
