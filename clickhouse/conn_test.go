package clickhouse

import (
	"slices"
	"testing"

	"overwatch"
)

func TestBindableIMOs(t *testing.T) {
	in := []any{overwatch.IMO(9321483), []overwatch.IMO{1, 2}, "x", uint32(7)}
	out := bindable(in)
	if out[0] != uint32(9321483) || !slices.Equal(out[1].([]uint32), []uint32{1, 2}) || out[2] != "x" || out[3] != uint32(7) {
		t.Errorf("bindable = %#v", out)
	}
	if _, ok := in[0].(overwatch.IMO); !ok {
		t.Error("bindable changed its caller's arguments")
	}
}
