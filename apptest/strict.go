package apptest

import "github.com/getkin/kin-openapi/openapi3"

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
