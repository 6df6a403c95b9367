// Package jobstest gives tests of the scheduled jobs what they share: the
// refresh jobs a set of sources turns on, a job's metric in a registry, and
// a locker and a state store that keep nothing, for schedulers run in
// process without PostgreSQL.
package jobstest

import (
	"context"
	"testing"
	"time"

	"overwatch/jobs"

	"github.com/prometheus/client_golang/prometheus"
)

// SourceJobs are the refresh jobs of the job table that the sources given
// turn on, as the application's scheduler builds them.
func SourceJobs(s jobs.Sources) []jobs.Job {
	var out []jobs.Job
	for _, j := range jobs.All(jobs.Deps{Sources: s}) {
		if j.Kind == jobs.Refresh && j.Off == "" {
			out = append(out, j)
		}
	}
	return out
}

// RefreshJob is the one refresh job of the table that the sources given
// turn on; the test fails when there is not exactly one.
func RefreshJob(t testing.TB, s jobs.Sources) jobs.Job {
	t.Helper()
	on := SourceJobs(s)
	if len(on) != 1 {
		t.Fatalf("%d refresh jobs on, want 1", len(on))
	}
	return on[0]
}

// Metric is the value of a job's counter in the registry (-1: absent).
func Metric(t testing.TB, reg *prometheus.Registry, name, job string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "job" && l.GetValue() == job {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	return -1
}

// Locker grants every claim: one scheduler, nobody to share a run with.
type Locker struct{}

// Claim grants the claim.
func (Locker) Claim(context.Context, string, time.Duration) (func(context.Context) error, bool, error) {
	return func(context.Context) error { return nil }, true, nil
}

// States keeps no job state: every job looks as if it never ran.
type States struct{}

// JobState is the empty state of the job named.
func (States) JobState(_ context.Context, name string) (jobs.State, error) {
	return jobs.State{Name: name}, nil
}

// RecordRun forgets the run.
func (States) RecordRun(context.Context, string, time.Time, time.Duration, jobs.Result, error) error {
	return nil
}

// JobStates is no state.
func (States) JobStates(context.Context) ([]jobs.State, error) { return nil, nil }
