package http

import (
	"strings"
	"testing"
	"testing/fstest"
)

// The fragments merge into one valid document; a fragment may not define
// a path or a component another one defines, nor anything but paths and
// components.
func TestOpenAPIFragmentsMerge(t *testing.T) {
	t.Parallel()
	doc, _, err := LoadOpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	if doc.Paths.Len() < 50 || doc.Components.Schemas["Error"] == nil {
		t.Errorf("merged document: %d paths, Error schema %v", doc.Paths.Len(), doc.Components.Schemas["Error"] != nil)
	}
	base := "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    Error: {type: object}\n"
	for name, tc := range map[string]struct{ frag, err string }{
		"duplicate path":      {"paths:\n  /x: {}\n", `path "/x" is already defined`},
		"duplicate component": {"components:\n  schemas:\n    Error: {type: string}\n", `schemas "Error" is already defined`},
		"foreign key":         {"info: {title: x}\n", `not "info"`},
	} {
		fsys := fstest.MapFS{
			"openapi/base.yaml": {Data: []byte(base)},
			"openapi/a.yaml":    {Data: []byte("paths:\n  /x: {}\n")},
			"openapi/b.yaml":    {Data: []byte(tc.frag)},
		}
		if _, err := mergeOpenAPI(fsys); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %v, want an error saying %q", name, err, tc.err)
		}
	}
}
