package main

import (
	"encoding/json"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// strictResponses makes the end-to-end tests' validation refuse a response
// field the document does not describe: every object schema that lists
// properties and says nothing of others is made to refuse others
// (additionalProperties: false), in the tests' copy of the document only.
// The branches of an allOf of several schemas are left open, as each
// describes only part of the object (a one-branch allOf, the document's
// way to make a reference nullable or describe it, is the whole object).
// Objects with no properties listed (free-form maps) stay open.
func strictResponses(doc *openapi3.T) {
	seen := map[*openapi3.Schema]bool{}
	open := map[*openapi3.Schema]bool{}
	var mark func(*openapi3.SchemaRef)
	mark = func(ref *openapi3.SchemaRef) {
		if ref == nil || ref.Value == nil || seen[ref.Value] {
			return
		}
		s := ref.Value
		seen[s] = true
		if len(s.AllOf) > 1 {
			for _, b := range s.AllOf {
				if b.Value != nil {
					open[b.Value] = true
				}
			}
		}
		for _, p := range s.Properties {
			mark(p)
		}
		for _, list := range []openapi3.SchemaRefs{s.AllOf, s.OneOf, s.AnyOf} {
			for _, b := range list {
				mark(b)
			}
		}
		mark(s.Items)
		mark(s.Not)
		mark(s.AdditionalProperties.Schema)
	}
	var roots []*openapi3.SchemaRef
	for _, ref := range doc.Components.Schemas {
		roots = append(roots, ref)
	}
	responses := func(rs map[string]*openapi3.ResponseRef) {
		for _, r := range rs {
			if r == nil || r.Value == nil {
				continue
			}
			for _, mt := range r.Value.Content {
				roots = append(roots, mt.Schema)
			}
		}
	}
	responses(doc.Components.Responses)
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			if op.Responses != nil {
				responses(op.Responses.Map())
			}
		}
	}
	for _, ref := range roots {
		mark(ref)
	}
	no := false
	for s := range seen {
		if open[s] || len(s.Properties) == 0 {
			continue
		}
		if s.AdditionalProperties.Has == nil && s.AdditionalProperties.Schema == nil {
			s.AdditionalProperties.Has = &no
		}
	}
}

// strictResponses refuses a field a schema does not list, leaves free-form
// maps open, and keeps the branches of a several-schema allOf open (each
// describes part of the object).
func TestStrictResponsesRefuseUndocumentedFields(t *testing.T) {
	t.Parallel()
	doc, _, err := loadOpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	strictResponses(doc)
	visit := func(schema, body string) error {
		t.Helper()
		var v any
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			t.Fatal(err)
		}
		return doc.Components.Schemas[schema].Value.VisitJSON(v)
	}
	if err := visit("Error", `{"error":"x","parameter":"port"}`); err != nil {
		t.Errorf("a documented error: %v", err)
	}
	if err := visit("Error", `{"error":"x","hint":"y"}`); err == nil {
		t.Error("an error with an undocumented field passes")
	}
	if err := visit("Health", `{"status":"ok","positions":1,"vessels":1,"positions_last_hour":0,"checks":{"clickhouse":"ok","postgres":"ok"}}`); err != nil {
		t.Errorf("a free-form map (checks): %v", err)
	}
	group := doc.Components.Schemas["EmissionsGroup"].Value
	if len(group.AllOf) < 2 {
		t.Fatalf("EmissionsGroup is no longer an allOf of several schemas: pick another")
	}
	for _, b := range group.AllOf {
		if h := b.Value.AdditionalProperties.Has; h != nil && !*h {
			t.Errorf("a branch of EmissionsGroup's allOf refuses other fields")
		}
	}
}

// Every response example of the document holds to its schema with no
// field the schema does not list (the examples /docs shows are real
// answers; loading the document checks them, but not this strictly).
func TestResponseExamplesAreStrict(t *testing.T) {
	t.Parallel()
	doc, _, err := loadOpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	strictResponses(doc)
	n := 0
	for _, path := range doc.Paths.InMatchingOrder() {
		for method, op := range doc.Paths.Find(path).Operations() {
			for status, r := range op.Responses.Map() {
				if r.Value == nil {
					continue
				}
				for ctype, mt := range r.Value.Content {
					if mt.Example == nil || mt.Schema == nil || mt.Schema.Value == nil {
						continue
					}
					n++
					if err := mt.Schema.Value.VisitJSON(mt.Example); err != nil {
						t.Errorf("%s %s %s %s: the example does not match the schema: %.500v", method, path, status, ctype, err)
					}
				}
			}
		}
	}
	if n < 50 {
		t.Errorf("%d response examples, want at least 50", n)
	}
}
