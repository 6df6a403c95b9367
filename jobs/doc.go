// Package jobs is when and where the service's work runs: the gocron
// scheduler (singleton mode, with a distributed locker so that with several
// instances each tick runs once), the one table of every job (jobs.go:
// name, kind, interval, singleton mode, the tables it rewrites; the
// external-source refreshes get their sources' refreshes as Sources: what a
// refresh does is its source package's, sources/..., the table holds when), and each job's
// run, one file per job
// or family, which loads its inputs through a store interface it declares,
// calls the domain packages (maritime/...) for what to compute, and stores
// the output: port calls, congestion, berth utilisation, fleet age, export
// estimates, destination reliability, voyage emissions, risk events,
// scores, hotspots and baselines, alerts, webhook deliveries.
//
// Each derivation recomputes whole grain-aligned windows (days, weeks), so
// a re-run changes nothing, and re-processes a trailing window for late
// data. After a run the scheduler tells the read cache of this process
// which tables changed (Scheduler.OnRun).
//
// It imports the standard library, gocron, the root vocabulary, the
// domain packages and the sources' vocabulary (sources); no HTTP framework and no store driver.
package jobs
