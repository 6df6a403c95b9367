package chtest

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"overwatch"
)

// Fixtures writes rows straight into a test database, through a
// connection of its own: for the tests of the read side, which need derived
// rows in states the jobs never leave (a generation written but not yet
// recorded, one superseded). The service never does this.
type Fixtures struct {
	conn driver.Conn
}

var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Open connects to the database of url (a URL of URL) for the test's
// lifetime.
func Open(t testing.TB, url string) *Fixtures {
	t.Helper()
	cluster := ""
	if base, params, ok := strings.Cut(url, "?cluster="); ok {
		url, cluster = base, strings.SplitN(params, "&", 2)[0]
	}
	opts, err := ch.ParseDSN(url)
	if err != nil {
		t.Fatal(err)
	}
	if cluster != "" {
		// Rows written through a Distributed table are stored when the
		// insert returns.
		opts.Settings = ch.Settings{"insert_distributed_sync": 1}
	}
	conn, err := ch.Open(opts)
	if err != nil {
		Unavailable(t, err)
	}
	t.Cleanup(func() { conn.Close() })
	return &Fixtures{conn: conn}
}

// Insert appends rows to a table in one batch; each row gives the columns'
// values in order, in the Go types clickhouse-go accepts for them.
func (f *Fixtures) Insert(t testing.TB, table string, columns []string, rows ...[]any) {
	t.Helper()
	for _, name := range append([]string{table}, columns...) {
		if !identifier.MatchString(name) {
			t.Fatalf("chtest: bad name %q", name)
		}
	}
	ctx := context.Background()
	batch, err := f.conn.PrepareBatch(ctx, "INSERT INTO "+table+" ("+strings.Join(columns, ", ")+")")
	if err != nil {
		t.Fatalf("chtest: insert %s: %v", table, err)
	}
	for _, r := range rows {
		if err := batch.Append(bindable(r)...); err != nil {
			batch.Abort() //nolint:errcheck
			t.Fatalf("chtest: insert %s: %v", table, err)
		}
	}
	if err := batch.Send(); err != nil {
		t.Fatalf("chtest: insert %s: %v", table, err)
	}
}

// RecordGeneration records that generation gen of the derived table name
// is complete for the day, which makes its rows of that day current
// (unless a newer generation of the day is recorded).
func (f *Fixtures) RecordGeneration(t testing.TB, name string, day time.Time, gen uint64) {
	t.Helper()
	f.Insert(t, "derivation_days", []string{"name", "day", "gen", "rows", "computed_at"},
		[]any{name, day.UTC().Truncate(24 * time.Hour), gen, uint64(0), time.Now().UTC().Truncate(time.Second)})
}

// QueryRow runs a one-row query, its arguments bound as the service binds
// them.
func (f *Fixtures) QueryRow(t testing.TB, query string, args ...any) driver.Row {
	t.Helper()
	return f.conn.QueryRow(context.Background(), query, bindable(args)...)
}

// bindable binds IMOs as their numbers (clickhouse-go would quote a
// fmt.Stringer), as the service's pool does.
func bindable(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		if imo, ok := a.(overwatch.IMO); ok {
			a = uint32(imo)
		}
		out[i] = a
	}
	return out
}

// PortCall is a port_calls row. Day is the UTC day of Arrival; WaitHours,
// BerthHours and PortHours, when 0, are computed from the times.
type PortCall struct {
	IMO                    overwatch.IMO
	Port                   string
	Arrival                time.Time
	Departure              *time.Time
	Anchorage              string
	AnchorStart, AnchorEnd *time.Time
	BerthZone              string
	BerthStart, BerthEnd   *time.Time
	WaitHours              float64
	BerthHours             float64
	PortHours              float64
	Confidence             uint8
	DraftBefore            float32
	DraftAfter             float32
	Operation              string
	CargoTonnes            float64
	CargoQuality           string
	Declared               string
	DeclaredPort           string
	Name, Flag             string
	ShipType               uint8
	Category               string
	BuildYear              uint16
	BuildYearEstimated     bool
}

func hoursBetween(from, to *time.Time) float64 {
	if from == nil || to == nil {
		return 0
	}
	return to.Sub(*from).Hours()
}

// InsertPortCalls writes the calls under generation gen. It does not
// record the generation: call RecordGeneration for each day, or the rows
// stay invisible, as those of an unfinished derivation run are.
func (f *Fixtures) InsertPortCalls(t testing.TB, gen uint64, calls ...PortCall) {
	t.Helper()
	rows := make([][]any, len(calls))
	for i, c := range calls {
		if c.WaitHours == 0 {
			c.WaitHours = hoursBetween(c.AnchorStart, c.AnchorEnd)
		}
		if c.BerthHours == 0 {
			c.BerthHours = hoursBetween(c.BerthStart, c.BerthEnd)
		}
		if c.PortHours == 0 {
			arrival := c.Arrival
			c.PortHours = hoursBetween(&arrival, c.Departure)
		}
		est := uint8(0)
		if c.BuildYearEstimated {
			est = 1
		}
		rows[i] = []any{
			c.Arrival.UTC().Truncate(24 * time.Hour), gen, c.IMO, c.Port, c.Arrival.UTC(), c.Departure, uint8(1), uint8(1),
			c.Anchorage, c.AnchorStart, c.AnchorEnd, c.BerthZone, c.BerthStart, c.BerthEnd,
			c.WaitHours, c.BerthHours, c.PortHours, c.Confidence, uint16(0), uint32(10),
			c.DraftBefore, c.DraftAfter, c.Operation, c.CargoTonnes, c.CargoQuality, float64(0),
			c.Declared, c.DeclaredPort, c.Name, c.Flag, c.ShipType, c.Category, c.BuildYear, est,
		}
	}
	f.Insert(t, "port_calls", []string{
		"day", "gen", "imo", "port", "arrival", "departure", "entry_seen", "exit_seen",
		"anchorage", "anchor_start", "anchor_end", "berth_zone", "berth_start", "berth_end",
		"wait_hours", "berth_hours", "port_hours", "confidence", "in_port_gaps", "positions",
		"draft_before", "draft_after", "operation", "cargo_tonnes", "cargo_quality", "dwt_estimate",
		"declared", "declared_port", "name", "flag", "ship_type", "category", "build_year", "build_year_estimated",
	}, rows...)
}

// Query runs a query, its arguments bound as the service binds them; the
// rows are closed at the test's end if the test does not close them.
func (f *Fixtures) Query(t testing.TB, query string, args ...any) driver.Rows {
	t.Helper()
	rows, err := f.conn.Query(context.Background(), query, bindable(args)...)
	if err != nil {
		t.Fatalf("chtest: %v", err)
	}
	t.Cleanup(func() { rows.Close() })
	return rows
}

// Exec runs a statement without rows (TRUNCATE, a DDL), its arguments
// bound as the service binds them.
func (f *Fixtures) Exec(t testing.TB, query string, args ...any) {
	t.Helper()
	if err := f.conn.Exec(context.Background(), query, bindable(args)...); err != nil {
		t.Fatalf("chtest: %v", err)
	}
}
