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
package sim
