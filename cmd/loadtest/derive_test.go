package main

import (
	"testing"
	"time"
)

func TestJobTimes(t *testing.T) {
	got := jobTimes("port_calls                 1472 rows  2026-10-23 .. 2026-11-23  in 15588 ms\n" +
		"  risk_events                  78 rows  2026-11-19 .. 2026-11-23  in 4465 ms\ndone in 27.069s\n")
	if len(got) != 2 || got["port_calls"] != 15588*time.Millisecond || got["risk_events"] != 4465*time.Millisecond {
		t.Errorf("jobTimes: %v", got)
	}
}
