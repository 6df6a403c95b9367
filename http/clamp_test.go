package http

import (
	"encoding/json"

	"reflect"
	"strings"
	"testing"
)

func TestClampArrays(t *testing.T) {
	for _, c := range []struct {
		in, want string
		n        int
	}{
		{`{"a":[1,2,3]}`, `{"a":[1,2]}`, 2},
		{`[1,2,3]`, `[1,2]`, 2},
		{`{"a":[1,2]}`, `{"a":[1,2]}`, 2},
		{`{"a":[],"b":{}}`, `{"a":[],"b":{}}`, 2},
		{`{"a":[[1,2,3],[4],[5,6,7]],"b":"[1,2,3]"}`, `{"a":[[1,2],[4]],"b":"[1,2,3]"}`, 2},
		{`{"a":[{"x":[1,2,3]},{"y":"\"]"},{"z":null}]}`, `{"a":[{"x":[1,2]},{"y":"\"]"}]}`, 2},
		{` { "a" : [ 1 , 2 , 3 ] } `, ` { "a" : [ 1 , 2] } `, 2},
		{`{"a":[true,false,null,-1.5e3]}`, `{"a":[true]}`, 1},
		{`not json [1,2,3]`, `not json [1,2,3]`, 1},
		{`{"a":[1,2,3]`, `{"a":[1,2,3]`, 1},
	} {
		got, clamped := clampArrays([]byte(c.in), c.n)
		if string(got) != c.want || clamped != (c.in != c.want) {
			t.Errorf("clampArrays(%s, %d) = %s %v, want %s", c.in, c.n, got, clamped, c.want)
		}
	}
}

// Clamping a large answer keeps it valid JSON with the same members.
func TestClampArraysLarge(t *testing.T) {
	type row struct {
		ID   int      `json:"id"`
		Tags []string `json:"tags"`
	}
	var rows []row
	for i := 0; i < 600; i++ {
		rows = append(rows, row{ID: i, Tags: strings.Split(strings.Repeat("t,", i%30), ",")})
	}
	body, _ := json.Marshal(map[string]any{"rows": rows, "count": len(rows)})
	out, clamped := clampArrays(body, 20)
	var got struct {
		Rows  []row `json:"rows"`
		Count int   `json:"count"`
	}
	if err := json.Unmarshal(out, &got); err != nil || !clamped {
		t.Fatalf("%v %v", err, clamped)
	}
	if len(got.Rows) != 20 || got.Count != 600 {
		t.Fatalf("%d rows, count %d", len(got.Rows), got.Count)
	}
	for i, r := range got.Rows {
		want := rows[i].Tags
		if len(want) > 20 {
			want = want[:20]
		}
		if r.ID != i || !reflect.DeepEqual(r.Tags, want) {
			t.Fatalf("row %d: %+v", i, r)
		}
	}
}

func FuzzClampArrays(f *testing.F) {
	f.Add([]byte(`{"a":[1,2,3,[4,5,6]],"b":"x"}`), uint8(2))
	f.Add([]byte(`[[],[[]],[[[1,2]]]]`), uint8(1))
	f.Fuzz(func(t *testing.T, body []byte, n uint8) {
		out, clamped := clampArrays(body, int(n))
		if !clamped {
			if string(out) != string(body) {
				t.Fatal("changed without clamping")
			}
			return
		}
		var in, res any
		if json.Unmarshal(body, &in) != nil {
			t.Fatalf("clamped a body that is not JSON: %q", body)
		}
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatalf("%q clamped to invalid JSON %q: %v", body, out, err)
		}
		if !within(res, int(n)) || !reflect.DeepEqual(cut(in, int(n)), res) {
			t.Fatalf("%q clamped to %q", body, out)
		}
	})
}

// within reports whether every array of v has at most n elements.
func within(v any, n int) bool {
	switch v := v.(type) {
	case []any:
		if len(v) > n {
			return false
		}
		for _, e := range v {
			if !within(e, n) {
				return false
			}
		}
	case map[string]any:
		for _, e := range v {
			if !within(e, n) {
				return false
			}
		}
	}
	return true
}

// cut is clampArrays on decoded JSON.
func cut(v any, n int) any {
	switch v := v.(type) {
	case []any:
		if len(v) > n {
			v = v[:n]
		}
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = cut(e, n)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			out[k] = cut(e, n)
		}
		return out
	}
	return v
}
