package app

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

// A 500-day backfill in 72-hour steps (167 of them, which logged a line
// each) logs a line at every tenth, ten in all, the last at 100%; on a
// terminal it draws a bar and logs none.
func TestProgressLogsEveryTenth(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	total := int64(500 * 24)
	p := newProgress(log, nil, "demo: backfill", total, "simulated hours")
	for h := int64(72); h < total+72; h += 72 {
		p.set(h, "messages", h*100)
	}
	p.finish()
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != 10 {
		t.Fatalf("%d lines:\n%s", len(lines), logs.String())
	}
	for i, l := range lines {
		if !strings.Contains(l, `msg="demo: backfill"`) || !strings.Contains(l, fmt.Sprintf("done=%d%% ", (i+1)*10)) || !strings.Contains(l, "messages=") {
			t.Errorf("line %d: %s", i, l)
		}
	}

	logs.Reset()
	var bar bytes.Buffer
	p = newProgress(log, &bar, "demo: backfill", total, "simulated hours")
	for h := int64(72); h < total+72; h += 72 {
		p.set(h)
	}
	p.finish()
	if logs.Len() != 0 || !strings.Contains(bar.String(), "demo: backfill (simulated hours)") || !strings.Contains(bar.String(), "100%") {
		t.Errorf("on a terminal: log %q, bar %q", logs.String(), bar.String())
	}
}
