package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gofiber/fiber/v2"
)

// openapiYAML documents every operation of routes.go; the end-to-end tests
// validate every response they receive against it.
//
//go:embed openapi.yaml
var openapiYAML []byte

// loadOpenAPI parses and validates the document and returns it as JSON.
func loadOpenAPI() (*openapi3.T, []byte, error) {
	doc, err := openapi3.NewLoader().LoadFromData(openapiYAML)
	if err != nil {
		return nil, nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	body, err := json.Marshal(doc)
	if err != nil {
		return nil, nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	return doc, body, nil
}

func serveOpenAPI(body []byte) fiber.Handler {
	return func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderCacheControl, "public, max-age=300")
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.Send(body)
	}
}
