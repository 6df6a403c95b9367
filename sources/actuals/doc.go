// Package actuals is the source of the official export figures the
// calibration compares the estimates with: the USDA AMS "Grain
// Inspections for Export" report WA_GR101 (its parser, its port areas
// mapped to the reference ports, and its scheduled refresh,
// GrainInspections) and the actuals CSV (port, week, commodity, tonnes)
// an operator imports with `overwatch import actuals` (ReadActuals tells
// the two apart).
//
// Publisher: USDA Agricultural Marketing Service, Market News (public
// domain, U.S. Government work). Base URL: OVERWATCH_GRAIN_INSPECTIONS_URL
// (the report's text file). A fetch that fails, or a body that is not a
// whole report, writes nothing: the figures last imported stay.
package actuals
