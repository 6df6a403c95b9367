package feed

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"time"

	"overwatch"
)

// TCP reads NMEA sentences from a TCP server, the way AISHub and Spire
// stream raw AIS, and reconnects with backoff (1 s doubling to 1 min) when
// the connection drops or stays silent for IdleTimeout.
type TCP struct {
	Addr        string
	Source      overwatch.Source
	Sink        Sink
	Log         *slog.Logger
	IdleTimeout time.Duration // default 2 min
	MinBackoff  time.Duration // default 1 s
	MaxBackoff  time.Duration // default 1 min
	Now         func() time.Time
}

// Name says what the feed is, for logs.
func (f *TCP) Name() string { return string(f.Source) + " tcp://" + f.Addr }

// Run reads until ctx ends.
func (f *TCP) Run(ctx context.Context) error {
	if f.IdleTimeout <= 0 {
		f.IdleTimeout = 2 * time.Minute
	}
	maxWait := f.MaxBackoff
	if maxWait <= 0 {
		maxWait = time.Minute
	}
	b := newBackoff(f.MinBackoff, maxWait)
	for {
		lines, err := f.session(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if lines > 0 {
			b.reset()
		}
		logger(f.Log).Warn("feed disconnected; reconnecting", "feed", f.Name(), "lines", lines, "err", err)
		if !b.wait(ctx) {
			return nil
		}
	}
}

func (f *TCP) session(ctx context.Context) (int, error) {
	d := net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", f.Addr)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	logger(f.Log).Info("feed connected", "feed", f.Name())
	n := newNMEA(f.Source, f.Sink, f.Now, true)
	defer n.count()
	lines, err := readLines(ctx, conn, func() error { return conn.SetReadDeadline(time.Now().Add(f.IdleTimeout)) }, n)
	if errors.Is(err, io.EOF) {
		err = errors.New("server closed the connection")
	}
	return lines, err
}

// maxLine bounds one line; longer input is cut and rejected by the decoder.
const maxLine = 4096

// readLines feeds every line of r to n, calling before (if set) ahead of
// each read, and returns the number of lines and the error that ended it.
func readLines(ctx context.Context, r io.Reader, before func() error, n *nmea) (int, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	lines := 0
	for {
		if before != nil {
			if err := before(); err != nil {
				return lines, err
			}
		}
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) || len(line) > maxLine {
			// Discard the rest of an overlong line; hand the decoder its head.
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
			line = line[:min(len(line), maxLine)]
		}
		if len(line) > 0 {
			lines++
			if cerr := n.line(ctx, line); cerr != nil {
				return lines, cerr
			}
			if lines%4096 == 0 {
				n.count()
			}
		}
		if err != nil {
			return lines, err
		}
	}
}

func logger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return l
}
