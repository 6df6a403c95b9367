package market

import (
	"io"
	"time"

	"overwatch/maritime/market"
)

// BatchSize is about how many observations Stream hands to its callback
// at once (a batch closes after the row that fills it, so a batch may
// exceed it by one row's observations).
const BatchSize = 5000

// Emit receives a batch of parsed observations: prices or rates (the
// other is nil). The slices are the callback's to keep.
type Emit func(prices []market.Price, rates []market.Rate) error

// Stream parses like Parse but hands the observations to emit in batches
// of about BatchSize as it reads, so that memory stays flat in the
// file's size; the Result it returns has the counts, not the
// observations. An error of emit stops the parse and is returned. On a
// parse error, batches already emitted stay emitted: a caller that must
// not store part of a file collects the batches and stores them only
// when Stream returns nil.
func Stream(name string, r io.Reader, dataset string, published time.Time, emit Emit) (Result, error) {
	return parse(name, r, dataset, published, emit)
}

// flush hands the observations gathered so far to res.emit, when there
// is one and (unless final) a batch is full.
func (res *Result) flush(final bool) error {
	if res.emit == nil || !final && len(res.Prices) < BatchSize && len(res.Rates) < BatchSize {
		return nil
	}
	if res.beforeFlush != nil {
		res.beforeFlush()
	}
	ps, rs := res.Prices, res.Rates
	res.Prices, res.Rates = nil, nil
	res.emitted += len(ps) + len(rs)
	if len(ps) > 0 {
		if err := res.emit(ps, nil); err != nil {
			return err
		}
	}
	if len(rs) > 0 {
		return res.emit(nil, rs)
	}
	return nil
}

// count is the number of observations parsed so far, emitted or held.
func (res *Result) count() int { return res.emitted + len(res.Prices) + len(res.Rates) }
