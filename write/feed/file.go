package feed

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"overwatch"
	"overwatch/write/ais"
)

// Files replays capture files (gzip-compressed when they end in .gz)
// through the sink, waiting when it is full. Lines without a time of their
// own take the replay's clock.
type Files struct {
	Paths  []string
	Source overwatch.Source
	Sink   Sink
	Now    func() time.Time
	// Progress, when set, is called as bytes are read, with the total size
	// of all files.
	Progress func(done, total int64)
}

// Run replays every file in order and returns the decoder's counters.
func (f *Files) Run(ctx context.Context) (ais.Stats, error) {
	var total int64
	for _, p := range f.Paths {
		fi, err := os.Stat(p)
		if err != nil {
			return ais.Stats{}, err
		}
		total += fi.Size()
	}
	n := newNMEA(f.Source, f.Sink, f.Now, true)
	defer n.count()
	var done int64
	for _, p := range f.Paths {
		file, err := os.Open(p)
		if err != nil {
			return n.stats(), err
		}
		var r io.Reader = &countingReader{r: file, n: &done, total: total, progress: f.Progress}
		if strings.HasSuffix(p, ".gz") {
			gz, err := gzip.NewReader(r)
			if err != nil {
				file.Close()
				return n.stats(), fmt.Errorf("%s: %w", p, err)
			}
			r = gz
		}
		_, err = readLines(ctx, r, nil, n)
		file.Close()
		if err != nil && err != io.EOF {
			return n.stats(), fmt.Errorf("%s: %w", p, err)
		}
	}
	if f.Progress != nil {
		f.Progress(total, total)
	}
	return n.stats(), nil
}

type countingReader struct {
	r        io.Reader
	n        *int64
	total    int64
	progress func(done, total int64)
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	*c.n += int64(n)
	if c.progress != nil && n > 0 {
		c.progress(*c.n, c.total)
	}
	return n, err
}
