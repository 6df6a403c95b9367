// Package accuracy holds the accuracy tests: the simulator's ground truth
// against what the service detects and serves through its API, scored as
// precision and recall (risk detectors, trade analytics, voyage earnings,
// chokepoint signals). `go test ./accuracy/` runs the smoke sizes;
// OVERWATCH_ACCURACY=full (make accuracy) the full tables.
package accuracy
