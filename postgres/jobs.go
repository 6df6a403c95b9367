package postgres

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"overwatch/jobs"
)

var (
	_ jobs.StateStore = (*DB)(nil)
	_ jobs.Locker     = (*DB)(nil)
)

// owner names this process in job claims.
var owner = func() string {
	h, _ := os.Hostname()
	return h + ":" + strconv.Itoa(os.Getpid())
}()

// Claim takes a session advisory lock on the job (so that no two instances
// run it at once) and, when spacing is positive, claims the run only if no
// instance claimed the job in the last spacing (so that with schedulers a
// little out of step each tick runs once). The lock is held on a dedicated
// connection until release.
func (db *DB) Claim(ctx context.Context, job string, spacing time.Duration) (func(context.Context) error, bool, error) {
	conn, err := db.claims.Acquire(ctx) // its own pool: see DB
	if err != nil {
		return nil, false, fmt.Errorf("postgres: claim %s: %w", job, err)
	}
	var locked bool
	if err := conn.QueryRow(ctx, "SELECT pg_try_advisory_lock(hashtext('job:' || $1))", job).Scan(&locked); err != nil {
		conn.Release()
		return nil, false, fmt.Errorf("postgres: claim %s: %w", job, err)
	}
	if !locked {
		conn.Release()
		return nil, false, nil
	}
	release := func(ctx context.Context) error {
		defer conn.Release()
		_, err := conn.Exec(ctx, "SELECT pg_advisory_unlock(hashtext('job:' || $1))", job)
		return err
	}
	var claimed string
	err = conn.QueryRow(ctx, `
INSERT INTO job_claims (name, claimed_at, owner) VALUES ($1, now(), $2)
ON CONFLICT (name) DO UPDATE SET claimed_at = now(), owner = $2
 WHERE job_claims.claimed_at <= now() - make_interval(secs => $3)
RETURNING name`, job, owner, spacing.Seconds()).Scan(&claimed)
	if errors.Is(err, pgx.ErrNoRows) {
		release(context.WithoutCancel(ctx)) //nolint:errcheck
		return nil, false, nil
	}
	if err != nil {
		release(context.WithoutCancel(ctx)) //nolint:errcheck
		return nil, false, fmt.Errorf("postgres: claim %s: %w", job, err)
	}
	return release, true, nil
}

// JobState returns the job's state; a job that never ran has the zero state.
func (db *DB) JobState(ctx context.Context, name string) (jobs.State, error) {
	st := jobs.State{Name: name}
	var watermark, lastRun, lastSuccess, lastFrom, lastTo *time.Time
	var ms, rows int64
	err := db.pool.QueryRow(ctx, `SELECT watermark, last_run, last_success, last_duration_ms, last_error, runs, failures, last_rows, last_from, last_to
		FROM job_state WHERE name = $1`, name).Scan(&watermark, &lastRun, &lastSuccess, &ms, &st.LastError, &st.Runs, &st.Failures,
		&rows, &lastFrom, &lastTo)
	if errors.Is(err, pgx.ErrNoRows) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("postgres: job state %s: %w", name, err)
	}
	if watermark != nil {
		st.Watermark = *watermark
	}
	if lastRun != nil {
		st.LastRun = *lastRun
	}
	if lastSuccess != nil {
		st.LastSuccess = *lastSuccess
	}
	if lastFrom != nil && lastTo != nil {
		st.LastFrom, st.LastTo = lastFrom.UTC(), lastTo.UTC()
	}
	st.LastDuration, st.LastRows = time.Duration(ms)*time.Millisecond, int(rows)
	return st, nil
}

// RecordRun records a run; a successful run moves the watermark.
func (db *DB) RecordRun(ctx context.Context, name string, started time.Time, took time.Duration, res jobs.Result, runErr error) error {
	msg := ""
	if runErr != nil {
		msg = runErr.Error()
		if len(msg) > 2000 {
			msg = msg[:2000]
		}
	}
	var watermark, from, to *time.Time
	if runErr == nil && !res.Watermark.IsZero() {
		watermark = &res.Watermark
	}
	if !res.From.IsZero() {
		from, to = &res.From, &res.To
	}
	_, err := db.pool.Exec(ctx, `
INSERT INTO job_state (name, watermark, last_run, last_success, last_duration_ms, last_error, last_rows, last_from, last_to, runs, failures)
VALUES ($1, $2::timestamptz, $3::timestamptz, CASE WHEN $6::text = '' THEN $3::timestamptz END, $4, $6::text, $5, $7::timestamptz, $8::timestamptz, 1, CASE WHEN $6::text = '' THEN 0 ELSE 1 END)
ON CONFLICT (name) DO UPDATE SET
    watermark        = coalesce(EXCLUDED.watermark, job_state.watermark),
    last_run         = EXCLUDED.last_run,
    last_success     = coalesce(EXCLUDED.last_success, job_state.last_success),
    last_duration_ms = EXCLUDED.last_duration_ms,
    last_error       = EXCLUDED.last_error,
    last_rows        = EXCLUDED.last_rows,
    last_from        = coalesce(EXCLUDED.last_from, job_state.last_from),
    last_to          = coalesce(EXCLUDED.last_to, job_state.last_to),
    runs             = job_state.runs + 1,
    failures         = job_state.failures + EXCLUDED.failures`,
		name, watermark, started, took.Milliseconds(), res.Rows, msg, from, to)
	if err != nil {
		return fmt.Errorf("postgres: record run %s: %w", name, err)
	}
	return nil
}

// JobStates returns every job's state.
func (db *DB) JobStates(ctx context.Context) ([]jobs.State, error) {
	rows, err := db.pool.Query(ctx, "SELECT name FROM job_state ORDER BY name")
	if err != nil {
		return nil, fmt.Errorf("postgres: job states: %w", err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, err
	}
	var out []jobs.State
	for _, n := range names {
		st, err := db.JobState(ctx, n)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}
