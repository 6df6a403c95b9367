// Package jobs is the scheduler and every derivation of the service: the
// gocron scheduler (with a distributed locker so that with several
// instances each job runs once), the list of jobs (jobs.go), and the jobs
// that turn the position history in ClickHouse into derived tables: port
// calls, congestion, berth utilisation, fleet age, export estimates,
// destination reliability. Each derivation recomputes whole grain-aligned
// windows (days, weeks), so a re-run changes nothing, and re-processes a
// trailing window for late data.
//
// It imports the standard library, gocron and the root vocabulary only; the
// stores it reads and writes are interfaces it declares.
package jobs
