package bulk

import (
	"io"
	"math"

	"github.com/parquet-go/parquet-go"
)

// parquetRowGroup is the rows of a row group: the writer keeps one row
// group in memory before it writes it out.
const parquetRowGroup = 64 << 10

// parquetWriter writes an Apache Parquet file (zstd-compressed): strings
// as UTF-8 byte arrays, integers as INT64, numbers as optional DOUBLE,
// times as optional INT64 TIMESTAMP(MILLIS, UTC); a null is a null.
type parquetWriter struct {
	cols  []Column
	leaf  []int // the schema's leaf index of each column (a group's leaves are ordered by name)
	w     *parquet.Writer
	batch []parquet.Row
}

func parquetSchema(d Dataset) *parquet.Schema {
	g := parquet.Group{}
	for _, c := range d.Columns() {
		switch c.Kind {
		case String, Text:
			g[c.Name] = parquet.String()
		case Int:
			g[c.Name] = parquet.Int(64)
		case ID:
			g[c.Name] = parquet.Optional(parquet.Int(64))
		case Float:
			g[c.Name] = parquet.Optional(parquet.Leaf(parquet.DoubleType))
		case Time:
			g[c.Name] = parquet.Optional(parquet.Timestamp(parquet.Millisecond))
		}
	}
	return parquet.NewSchema(string(d), g)
}

func newParquetWriter(d Dataset, w io.Writer) *parquetWriter {
	schema := parquetSchema(d)
	p := &parquetWriter{cols: d.Columns()}
	for _, c := range p.cols {
		leaf, _ := schema.Lookup(c.Name)
		p.leaf = append(p.leaf, leaf.ColumnIndex)
	}
	p.w = parquet.NewWriter(w, schema, parquet.Compression(&parquet.Zstd), parquet.MaxRowsPerRowGroup(parquetRowGroup))
	return p
}

func (p *parquetWriter) Write(vals []any) error {
	row := make(parquet.Row, len(p.cols))
	for i, c := range p.cols {
		j := p.leaf[i]
		var v parquet.Value
		switch c.Kind {
		case String, Text:
			v = parquet.ByteArrayValue([]byte(*vals[i].(*string))).Level(0, 0, j)
		case Int:
			v = parquet.Int64Value(*vals[i].(*int64)).Level(0, 0, j)
		case ID:
			if x := *vals[i].(*int64); x != 0 {
				v = parquet.Int64Value(x).Level(0, 1, j)
			} else {
				v = parquet.Value{}.Level(0, 0, j)
			}
		case Float:
			if x := *vals[i].(*float64); !math.IsNaN(x) && !math.IsInf(x, 0) {
				v = parquet.DoubleValue(x).Level(0, 1, j)
			} else {
				v = parquet.Value{}.Level(0, 0, j)
			}
		case Time:
			if x := *vals[i].(*int64); x != 0 {
				v = parquet.Int64Value(x*1000).Level(0, 1, j)
			} else {
				v = parquet.Value{}.Level(0, 0, j)
			}
		}
		row[j] = v
	}
	p.batch = append(p.batch, row)
	if len(p.batch) == 1024 {
		return p.flush()
	}
	return nil
}

func (p *parquetWriter) flush() error {
	_, err := p.w.WriteRows(p.batch)
	p.batch = p.batch[:0]
	return err
}

func (p *parquetWriter) Close() error {
	if err := p.flush(); err != nil {
		return err
	}
	return p.w.Close()
}
