package e2e

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// The walks of TestClientAnswersTheDocumentedRecords: a record's
// objects in an answer, their JSON types, and the schema the document
// gives them.

// recordsAt is the objects at the path of a record in a decoded answer.
func recordsAt(v any, at string) ([]map[string]any, error) {
	cur := []any{v}
	for _, step := range strings.Split(at, ".") {
		if step == "" {
			continue
		}
		name, each := strings.CutSuffix(step, "[]")
		var next []any
		for _, c := range cur {
			if name != "" {
				m, ok := c.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("%s: not an object", name)
				}
				c = m[name]
			}
			if each {
				list, ok := c.([]any)
				if !ok {
					return nil, fmt.Errorf("%s: not an array", step)
				}
				next = append(next, list...)
			} else {
				next = append(next, c)
			}
		}
		cur = next
	}
	out := make([]map[string]any, 0, len(cur))
	for _, c := range cur {
		m, ok := c.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("a record is not an object: %v", c)
		}
		out = append(out, m)
	}
	return out, nil
}

// jsonTypeOf is the JSON type of a decoded value (a whole number is an
// integer).
func jsonTypeOf(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64:
		if v == float64(int64(v)) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// typeAllows reports whether a value of JSON type got may stand for a
// field of type want ("number|null": a number, an integer or null).
func typeAllows(want, got string) bool {
	for _, w := range strings.Split(want, "|") {
		if w == got || w == "number" && got == "integer" {
			return true
		}
	}
	return false
}

// oneOf checks that the field of every record of list is one of values.
func oneOf(list any, field string, values ...string) error {
	items, _ := list.([]any)
	if len(items) == 0 {
		return fmt.Errorf("no records to check %s", field)
	}
	for _, it := range items {
		v, _ := it.(map[string]any)[field].(string)
		found := false
		for _, want := range values {
			found = found || v == want
		}
		if !found {
			return fmt.Errorf("%s %q is not one of %v", field, v, values)
		}
	}
	return nil
}

// documentedAt is the schema the document gives a record: the operation's
// response at the record's status, walked along its path (references,
// one-schema allOfs and, for a oneOf, the branch holding the next step or
// the record's first field, resolved).
func documentedAt(doc *openapi3.T, sr specRecord) (*openapi3.Schema, error) {
	method, target, _ := strings.Cut(sr.op, " ")
	path, _, _ := strings.Cut(target, "?")
	item := doc.Paths.Find(path)
	if item == nil || item.GetOperation(method) == nil {
		return nil, fmt.Errorf("%s is not in the document", sr.op)
	}
	resp := item.GetOperation(method).Responses.Status(sr.status)
	if resp == nil || resp.Value == nil || resp.Value.Content.Get("application/json") == nil {
		return nil, fmt.Errorf("%s: no JSON answer %d in the document", sr.op, sr.status)
	}
	schema := resp.Value.Content.Get("application/json").Schema.Value
	steps := strings.Split(sr.at, ".")
	for i, step := range steps {
		name, each := strings.CutSuffix(step, "[]")
		want := name
		if want == "" && i+1 < len(steps) {
			want = strings.TrimSuffix(steps[i+1], "[]")
		}
		if want == "" {
			want = sr.fields[0].name
		}
		schema = settle(schema, want)
		if name != "" {
			p := schema.Properties[name]
			if p == nil || p.Value == nil {
				return nil, fmt.Errorf("%s: no %s in the document's answer", sr.op, name)
			}
			schema = p.Value
		}
		if each {
			schema = settle(schema, want)
			if schema.Items == nil || schema.Items.Value == nil {
				return nil, fmt.Errorf("%s: %s is not an array in the document", sr.op, step)
			}
			schema = schema.Items.Value
		}
	}
	return settle(schema, sr.fields[0].name), nil
}

// settle resolves a one-schema allOf and picks the oneOf branch that lists
// the property next.
func settle(s *openapi3.Schema, next string) *openapi3.Schema {
	for {
		switch {
		case len(s.AllOf) == 1 && s.AllOf[0].Value != nil:
			s = s.AllOf[0].Value
			continue
		case len(s.OneOf) > 0:
			for _, b := range s.OneOf {
				if b.Value != nil && b.Value.Properties[next] != nil {
					return b.Value
				}
			}
		}
		return s
	}
}

// documentedType is a property's type as the answers' types are written:
// "integer", "string|null", ...
func documentedType(p *openapi3.SchemaRef) string {
	s := p.Value
	nullable := s.Nullable
	for len(s.AllOf) == 1 && s.AllOf[0].Value != nil {
		s = s.AllOf[0].Value
		nullable = nullable || s.Nullable
	}
	typ := "?"
	if s.Type != nil && len(s.Type.Slice()) > 0 {
		typ = s.Type.Slice()[0]
	}
	if nullable {
		typ += "|null"
	}
	return typ
}

// bodyOf is the body a generated response read.
func bodyOf(r clientStatus) []byte {
	return reflect.ValueOf(r).Elem().FieldByName("Body").Bytes()
}
