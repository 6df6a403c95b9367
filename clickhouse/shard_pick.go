package clickhouse

import (
	"reflect"
	"time"
)

// pick returns the rows of a column slice, in the order of rows: a shard's
// part of a column. The column types of the ingest inserts are copied
// without reflection; any other slice through it.
func pick(col any, rows []int) any {
	switch c := col.(type) {
	case []uint8:
		return pickOf(c, rows)
	case []uint16:
		return pickOf(c, rows)
	case []uint32:
		return pickOf(c, rows)
	case []uint64:
		return pickOf(c, rows)
	case []float64:
		return pickOf(c, rows)
	case []string:
		return pickOf(c, rows)
	case []time.Time:
		return pickOf(c, rows)
	case []*float32:
		return pickOf(c, rows)
	case []*float64:
		return pickOf(c, rows)
	case []*uint16:
		return pickOf(c, rows)
	case []*string:
		return pickOf(c, rows)
	case []*time.Time:
		return pickOf(c, rows)
	}
	v := reflect.ValueOf(col)
	out := reflect.MakeSlice(v.Type(), len(rows), len(rows))
	for i, r := range rows {
		out.Index(i).Set(v.Index(r))
	}
	return out.Interface()
}

func pickOf[T any](s []T, rows []int) []T {
	if len(rows) == len(s) {
		return s // every row: rows is 0..n-1 in order
	}
	out := make([]T, len(rows))
	for i, r := range rows {
		out[i] = s[r]
	}
	return out
}
