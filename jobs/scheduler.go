package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/go-co-op/gocron/v2"
	"github.com/google/uuid"
)

// Job is one scheduled task, a row of the table (All). Every is its
// interval; runs start on multiples of it (UTC), so that schedulers on
// several instances fire together and the locker lets one of them run.
// Singleton is its gocron limit mode (0: LimitModeReschedule). Writes
// names the tables a run rewrites: after one, the scheduler's OnRun hook
// tells the read cache of this process. A job with Off set (why it is off)
// is listed but not scheduled.
type Job struct {
	Name      string
	Kind      Kind
	Every     time.Duration
	Singleton gocron.LimitMode
	Writes    []string
	Run       Run
	Off       string
	// Fresh, when set, lets RefreshNow skip a run when nothing it reads
	// changed since the last one.
	Fresh Fresh
}

// Run is what a job does: load its inputs through its store, compute with
// the domain packages, store its output; prev is the state its last run
// left.
type Run func(ctx context.Context, prev State) (Result, error)

// Result is what a run did: the window it recomputed, the rows it wrote,
// and the new watermark (the newest input it has taken into account).
type Result struct {
	From, To  time.Time
	Rows      int
	Watermark time.Time
	Detail    map[string]any
}

// State is what is kept of a job between runs (in Postgres): LastRows
// is what its last run wrote, LastFrom and LastTo the window of the last
// run that had one.
type State struct {
	Name         string
	Watermark    time.Time
	LastRun      time.Time
	LastSuccess  time.Time
	LastDuration time.Duration
	LastError    string
	LastRows     int
	LastFrom     time.Time
	LastTo       time.Time
	Runs         int64
	Failures     int64
}

// Fresh reports whether nothing a job reads has changed since its last
// run (prev), which a refresh then need not repeat; state reads another
// job's state.
type Fresh func(ctx context.Context, prev State, state func(ctx context.Context, name string) (State, error)) (bool, error)

// StateStore keeps the jobs' state.
type StateStore interface {
	JobState(ctx context.Context, name string) (State, error)
	RecordRun(ctx context.Context, name string, started time.Time, took time.Duration, res Result, runErr error) error
	JobStates(ctx context.Context) ([]State, error)
}

// Locker claims a job's run for one instance: it fails (ok false) when
// another instance holds the job or ran it less than spacing ago, and
// otherwise holds the claim until release.
type Locker interface {
	Claim(ctx context.Context, job string, spacing time.Duration) (release func(context.Context) error, ok bool, err error)
}

// ErrClaimed is returned when another instance has the job.
var ErrClaimed = errors.New("jobs: another instance runs this job")

// Scheduler runs the jobs on their schedules.
type Scheduler struct {
	s       gocron.Scheduler
	table   []Job // every job given, those off included
	jobs    map[string]*entry
	order   []string
	locker  Locker
	state   StateStore
	log     *slog.Logger
	timeout time.Duration

	catchUp       sync.WaitGroup
	cancelCatchUp context.CancelFunc

	// OnRun, when set, is called after each successful run with the
	// tables the job rewrote (Job.Writes).
	OnRun func(tables []string)
}

type entry struct {
	job     Job
	mu      sync.Mutex // one run at a time in this process
	statsMu sync.Mutex
	stats   Stats
}

// Stats are a job's counters in this process, for /metrics.
type Stats struct {
	Runs, Failures, Skipped int64
	LastDuration            time.Duration
	LastSuccess             time.Time
	Watermark               time.Time
}

// NewScheduler returns a scheduler of the jobs (the table, All); Start
// starts it. Each job that is not off is a gocron duration job aligned on
// multiples of its interval, in its singleton mode, behind gocron's
// distributed locker (locker, a Postgres advisory lock): with several
// instances each tick runs once.
func NewScheduler(jobs []Job, locker Locker, state StateStore, log *slog.Logger) (*Scheduler, error) {
	s, err := gocron.NewScheduler(gocron.WithLocation(time.UTC))
	if err != nil {
		return nil, err
	}
	sc := &Scheduler{s: s, table: jobs, jobs: map[string]*entry{}, locker: locker, state: state, log: log, timeout: 10 * time.Minute}
	for _, j := range jobs {
		if j.Off != "" || j.Run == nil {
			continue
		}
		if _, dup := sc.jobs[j.Name]; dup {
			return nil, fmt.Errorf("jobs: %s twice", j.Name)
		}
		mode := j.Singleton
		if mode == 0 {
			mode = gocron.LimitModeReschedule
		}
		e := &entry{job: j}
		sc.jobs[j.Name], sc.order = e, append(sc.order, j.Name)
		next := time.Now().UTC().Truncate(j.Every).Add(j.Every)
		_, err := s.NewJob(
			gocron.DurationJob(j.Every),
			gocron.NewTask(func(ctx context.Context) { sc.execute(ctx, e) }), //nolint:errcheck // logged and counted
			gocron.WithName(j.Name),
			gocron.WithSingletonMode(mode),
			gocron.WithStartAt(gocron.WithStartDateTime(next)),
			gocron.WithDistributedJobLocker(gocronLocker{locker: locker, spacing: j.Every / 2}),
			gocron.WithEventListeners(gocron.AfterLockError(func(_ uuid.UUID, _ string, _ error) {
				e.statsMu.Lock()
				e.stats.Skipped++
				e.statsMu.Unlock()
			})),
		)
		if err != nil {
			return nil, fmt.Errorf("jobs: %s: %w", j.Name, err)
		}
	}
	return sc, nil
}

// gocronLocker adapts Locker to gocron's distributed locker: the key is
// the job's name; a tick is claimed only if no instance claimed the job in
// the last spacing (half its interval), so that schedulers a little out of
// step do not each run it.
type gocronLocker struct {
	locker  Locker
	spacing time.Duration
}

func (l gocronLocker) Lock(ctx context.Context, key string) (gocron.Lock, error) {
	release, ok, err := l.locker.Claim(ctx, key, l.spacing)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrClaimed
	}
	return gocronLock(release), nil
}

type gocronLock func(context.Context) error

func (l gocronLock) Unlock(ctx context.Context) error { return l(ctx) }

// Start starts the schedules, and at once runs every job whose last run
// (on any instance) is older than half its interval, in the order given,
// so a fresh start does not wait for the first tick.
func (sc *Scheduler) Start() {
	sc.s.Start()
	ctx, cancel := context.WithCancel(context.Background())
	sc.cancelCatchUp = cancel
	sc.catchUp.Add(1)
	go func() {
		defer sc.catchUp.Done()
		for _, name := range sc.order {
			e := sc.jobs[name]
			release, ok, err := sc.locker.Claim(ctx, name, e.job.Every/2)
			if err != nil || !ok {
				continue
			}
			sc.execute(ctx, e)                  //nolint:errcheck // logged and counted
			release(context.WithoutCancel(ctx)) //nolint:errcheck
		}
	}()
}

// Stop waits for running jobs and stops.
func (sc *Scheduler) Stop() error {
	if sc.cancelCatchUp != nil {
		sc.cancelCatchUp()
		sc.catchUp.Wait()
	}
	return sc.s.Shutdown()
}

// Names lists the scheduled jobs in the order given.
func (sc *Scheduler) Names() []string { return append([]string(nil), sc.order...) }

// Table is every job given, those off included, in the order given.
func (sc *Scheduler) Table() []Job { return append([]Job(nil), sc.table...) }

// Registered lists the names of the jobs registered with gocron.
func (sc *Scheduler) Registered() []string {
	var out []string
	for _, j := range sc.s.Jobs() {
		out = append(out, j.Name())
	}
	return out
}

// RunNow runs the job at once (the refresh endpoint, `overwatch jobs
// --once`), whatever the schedule, unless another run holds it (then
// ErrClaimed).
func (sc *Scheduler) RunNow(ctx context.Context, name string) (Result, error) {
	e, ok := sc.jobs[name]
	if !ok {
		return Result{}, fmt.Errorf("jobs: no job %q", name)
	}
	release, ok, err := sc.locker.Claim(ctx, name, 0)
	if err != nil {
		return Result{}, err
	}
	if !ok {
		return Result{}, ErrClaimed
	}
	defer release(context.WithoutCancel(ctx)) //nolint:errcheck // the lock goes with the session anyway
	return sc.execute(ctx, e)
}

// RefreshNow is RunNow for a refresh on demand (the congestion refresh
// endpoint): it runs the job at once, incrementally as the schedule does,
// unless its last run succeeded and nothing it reads changed since
// (Job.Fresh); then it answers that run's window and rows (ran false, at
// the cost of the freshness check). ErrClaimed when another run holds it.
func (sc *Scheduler) RefreshNow(ctx context.Context, name string) (res Result, ran bool, err error) {
	e, ok := sc.jobs[name]
	if !ok {
		return Result{}, false, fmt.Errorf("jobs: no job %q", name)
	}
	release, ok, err := sc.locker.Claim(ctx, name, 0)
	if err != nil {
		return Result{}, false, err
	}
	if !ok {
		return Result{}, false, ErrClaimed
	}
	defer release(context.WithoutCancel(ctx)) //nolint:errcheck // the lock goes with the session anyway
	if e.job.Fresh != nil {
		prev, err := sc.state.JobState(ctx, name)
		if err != nil {
			return Result{}, false, err
		}
		if !prev.LastSuccess.IsZero() && prev.LastError == "" && !prev.Watermark.IsZero() {
			fresh, err := e.job.Fresh(ctx, prev, sc.state.JobState)
			if err != nil {
				return Result{}, false, err
			}
			if fresh {
				return Result{From: prev.LastFrom, To: prev.LastTo, Rows: prev.LastRows, Watermark: prev.Watermark}, false, nil
			}
		}
	}
	res, err = sc.execute(ctx, e)
	return res, true, err
}

// execute runs the job once (its claim is held), records the run in the
// state store and the counters, and logs it.
func (sc *Scheduler) execute(ctx context.Context, e *entry) (Result, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, sc.timeout)
	defer cancel()
	prev, err := sc.state.JobState(ctx, e.job.Name)
	if err != nil {
		sc.log.Error("job state not read", "job", e.job.Name, "err", err)
		return Result{}, err
	}
	started := time.Now()
	res, runErr := e.job.Run(ctx, prev)
	took := time.Since(started)
	if err := sc.state.RecordRun(context.WithoutCancel(ctx), e.job.Name, started, took, res, runErr); err != nil {
		sc.log.Error("job state not recorded", "job", e.job.Name, "err", err)
	}
	e.statsMu.Lock()
	e.stats.Runs++
	e.stats.LastDuration = took
	if runErr == nil {
		e.stats.LastSuccess = time.Now()
		if !res.Watermark.IsZero() {
			e.stats.Watermark = res.Watermark
		}
	} else {
		e.stats.Failures++
	}
	e.statsMu.Unlock()
	if runErr != nil {
		sc.log.Error("job failed", "job", e.job.Name, "took", took.Round(time.Millisecond), "err", runErr)
		return res, runErr
	}
	if sc.OnRun != nil && len(e.job.Writes) > 0 {
		sc.OnRun(e.job.Writes)
	}
	// A run that wrote nothing (a delivery queue with nothing due, a
	// refresh of an idle source) is logged at debug: every 5 seconds at
	// info, the webhook worker alone buried the log.
	level := slog.LevelInfo
	if res.Rows == 0 {
		level = slog.LevelDebug
	}
	sc.log.Log(ctx, level, "job done", "job", e.job.Name, "took", took.Round(time.Millisecond), "rows", res.Rows,
		"from", res.From.Format(time.RFC3339), "to", res.To.Format(time.RFC3339))
	return res, nil
}

// Stats returns the counters of every job in this process.
func (sc *Scheduler) Stats() map[string]Stats {
	out := map[string]Stats{}
	for name, e := range sc.jobs {
		e.statsMu.Lock()
		out[name] = e.stats
		e.statsMu.Unlock()
	}
	return out
}
