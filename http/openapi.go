package http

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gofiber/fiber/v2"
	"github.com/oasdiff/yaml"
)

// openapiFiles is the OpenAPI document in fragments: base.yaml (info,
// servers, tags, security, the components several areas share) and one
// fragment per area of the API with its paths and own components. Adding
// an endpoint touches its area's fragment; the end-to-end tests validate
// every response they receive against the merged document.
//
//go:embed openapi/*.yaml
var openapiFiles embed.FS

// OpenAPIJSON is the merged and validated document as JSON, as GET
// /v1/openapi.json serves it. The fragments are embedded, so it is built
// once per process (a few hundred milliseconds of YAML and validation);
// callers share the bytes and must not change them.
func OpenAPIJSON() ([]byte, error) { return servedOpenAPI() }

// servedOpenAPI builds OpenAPIJSON's bytes at its first call.
var servedOpenAPI = sync.OnceValues(func() ([]byte, error) {
	_, body, err := LoadOpenAPI()
	return body, err
})

// LoadOpenAPI merges the fragments, parses and validates the document, and
// returns it as JSON. Each call builds a document of its own, which the
// caller may change.
func LoadOpenAPI() (*openapi3.T, []byte, error) {
	merged, err := mergeOpenAPI(openapiFiles)
	if err != nil {
		return nil, nil, err
	}
	doc, err := openapi3.NewLoader().LoadFromData(merged)
	if err != nil {
		return nil, nil, fmt.Errorf("openapi: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, nil, fmt.Errorf("openapi: %w", err)
	}
	body, err := json.Marshal(doc)
	if err != nil {
		return nil, nil, fmt.Errorf("openapi: %w", err)
	}
	return doc, body, nil
}

// mergeOpenAPI merges openapi/base.yaml with every other fragment of fsys:
// their paths, and each section of their components, may not name the same
// path or component twice.
func mergeOpenAPI(fsys fs.FS) ([]byte, error) {
	names, err := fs.Glob(fsys, "openapi/*.yaml")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var doc map[string]any
	if err := readYAML(fsys, "openapi/base.yaml", &doc); err != nil {
		return nil, err
	}
	paths := section(doc, "paths")
	components := section(doc, "components")
	for _, name := range names {
		if path.Base(name) == "base.yaml" {
			continue
		}
		var frag map[string]any
		if err := readYAML(fsys, name, &frag); err != nil {
			return nil, err
		}
		for key := range frag {
			if key != "paths" && key != "components" {
				return nil, fmt.Errorf("openapi: %s: a fragment holds paths and components only, not %q", name, key)
			}
		}
		if err := mergeInto(paths, section(frag, "paths"), name, "path"); err != nil {
			return nil, err
		}
		for kind, items := range section(frag, "components") {
			m, ok := items.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("openapi: %s: components.%s is not a map", name, kind)
			}
			if err := mergeInto(section(components, kind), m, name, kind); err != nil {
				return nil, err
			}
		}
	}
	return json.Marshal(doc)
}

// readYAML decodes one fragment.
func readYAML(fsys fs.FS, name string, v any) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return fmt.Errorf("openapi: %w", err)
	}
	j, err := yaml.YAMLToJSON(b)
	if err != nil {
		return fmt.Errorf("openapi: %s: %w", name, err)
	}
	if err := json.Unmarshal(j, v); err != nil {
		return fmt.Errorf("openapi: %s: %w", name, err)
	}
	return nil
}

// section returns m[key] as a map, creating it when absent.
func section(m map[string]any, key string) map[string]any {
	s, ok := m[key].(map[string]any)
	if !ok {
		s = map[string]any{}
		m[key] = s
	}
	return s
}

// mergeInto adds src's entries to dst, refusing one dst has already.
func mergeInto(dst, src map[string]any, file, what string) error {
	for k, v := range src {
		if _, dup := dst[k]; dup {
			return fmt.Errorf("openapi: %s: %s %q is already defined by another fragment", file, what, k)
		}
		dst[k] = v
	}
	return nil
}

func serveOpenAPI(body []byte) fiber.Handler {
	return func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderCacheControl, "public, max-age=300")
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.Send(body)
	}
}
