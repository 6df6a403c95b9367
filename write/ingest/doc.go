// Package ingest is the write path of AIS data: it takes decoded reports
// from any feed, resolves each MMSI to its IMO through the vessel registry
// it keeps, and writes positions, static reports, the latest-position store
// and the registry's history to the store in batches, through a bounded
// queue, spooling batches to disk while the store is unreachable.
//
// Attribution rule: a class A position (types 1, 2, 3, 27) whose MMSI has
// no IMO yet waits, for up to the attribution window (10 minutes, longer
// than the 6-minute static-report cadence; measured in report time, so that
// a replay of history follows the data, and in wall time for a feed that
// stalls), for the vessel's first type 5;
// when it arrives the waiting positions are written with the IMO. Positions
// still unattributed when the window passes, class B positions (which carry
// no IMO) and positions of MMSIs whose static data has no IMO are written at
// once with IMO 0: kept, never lost, but not served by IMO until a later
// static report names it. An IMO is taken only when it is seven digits with
// a valid check digit; the many type 5 reports with other numbers in the
// IMO field (MMSIs, placeholders) are stored as reported but never name a
// vessel.
package ingest
