package overwatch

import "testing"

func TestWithReplacesAFieldOfTheSameKey(t *testing.T) {
	t.Parallel()
	e := Errorf(Invalid, "limit must be a positive integer").With("parameter", "limit").With("allowed", 1).With("parameter", "cursor")
	if len(e.Fields) != 2 || e.Fields[0] != (Field{"parameter", "cursor"}) || e.Fields[1] != (Field{"allowed", 1}) {
		t.Errorf("fields %+v", e.Fields)
	}
}
