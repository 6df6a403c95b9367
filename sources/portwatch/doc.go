// Package portwatch is the IMF PortWatch source: its parser and the
// refresh of the daily chokepoint transits (Transits).
//
// Publisher: the IMF and the University of Oxford, PortWatch. Base URL:
// OVERWATCH_PORTWATCH_URL (the Daily_Chokepoints_Data query; empty, the
// default: off). A fetch that fails keeps what is stored.
//
// The parser reads IMF PortWatch's daily chokepoint transits (the
// Daily_Chokepoints_Data ArcGIS feature service, f=json): the ships of
// each type that passed each chokepoint each day. Its terms do not allow
// redistributing the data: the service fetches it only where an operator
// configures it, and no response is bundled (the test fixtures are built
// from the documented layout, ../shared/data/news/NOTES.md, and say so).
package portwatch
