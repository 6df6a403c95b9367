package app

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress reports a long task's advance (the demo's backfill): on a
// terminal, a bar; elsewhere a log line each time another tenth of the
// work is done, at most ten lines whatever the task's length.
type progress struct {
	log     *slog.Logger
	msg     string
	total   int64
	logged  int64 // the tenths logged so far
	started time.Time
	out     io.Writer // the bar's terminal; nil: log lines
	bar     *progressbar.ProgressBar
}

// terminal is w when it is a terminal, else nil.
func terminal(w io.Writer) io.Writer {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return w
	}
	return nil
}

// newProgress reports msg over total units (unit names them on the bar):
// a bar on out when it is not nil (a terminal), else log lines.
func newProgress(log *slog.Logger, out io.Writer, msg string, total int64, unit string) *progress {
	p := &progress{log: log, msg: msg, total: max(total, 1), started: time.Now(), out: out}
	if out != nil {
		p.bar = progressbar.NewOptions64(p.total, progressbar.OptionSetDescription(msg+" ("+unit+")"), progressbar.OptionSetWriter(out),
			progressbar.OptionShowCount(), progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionSetPredictTime(true))
	}
	return p
}

// set reports done units of the total; attrs are added to a log line.
func (p *progress) set(done int64, attrs ...any) {
	done = min(max(done, 0), p.total)
	if p.bar != nil {
		p.bar.Set64(done) //nolint:errcheck
		return
	}
	tenths := done * 10 / p.total
	if tenths <= p.logged {
		return
	}
	p.logged = tenths
	p.log.Info(p.msg, append([]any{"done", fmt.Sprintf("%d%%", tenths*10), "elapsed", time.Since(p.started).Round(time.Second)}, attrs...)...)
}

// finish ends the bar, if any, on its own line.
func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()      //nolint:errcheck
		fmt.Fprintln(p.out) //nolint:errcheck
	}
}
