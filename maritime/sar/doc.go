// Package sar is Sentinel-1 radar-satellite coverage: catalogue products
// and their footprints, whether a footprint comes within a radius of a
// point, the passes each relative orbit repeats every 12 days, and the
// verification potential the closest pass gives. It reports catalogue
// coverage only, never a confirmation of any vessel; it imports no
// storage and no HTTP.
package sar
