package apptest

import (
	"encoding/json"
	owhttp "overwatch/http"
	"testing"
)

// strictResponses refuses a field a schema does not list, leaves free-form
// maps open, and keeps the branches of a several-schema allOf open (each
// describes part of the object).
func TestStrictResponsesRefuseUndocumentedFields(t *testing.T) {
	t.Parallel()
	doc, _, err := owhttp.LoadOpenAPI()
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
	doc, _, err := owhttp.LoadOpenAPI()
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
