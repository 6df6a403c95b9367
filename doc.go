// Package overwatch is the shared vocabulary of the Overwatch service: the
// error kinds of the one error path, the calling account and its tier, the
// AIS providers, the API-key format, the MID-to-flag table and IMO check
// digits, ship type categories, and the geography every part works on: the
// 40 reference ports with their areas, anchorages and berth zones, the
// Natural Earth land mask (on land, distance to shore, crossings), and the
// sea-lane graph that routes voyages between the ports.
//
// It imports nothing of the project, so every other package may use it.
package overwatch
