package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"overwatch/http"
)

// openapiCommand is `overwatch openapi [FILE]`: the merged OpenAPI document
// the service serves at /v1/openapi.json, indented, on stdout or into FILE.
// `make client` writes it to client/openapi.json and generates the Go
// client from it.
func openapiCommand(args []string, stdout io.Writer) error {
	if len(args) > 1 {
		return fmt.Errorf("openapi: usage: overwatch openapi [FILE]")
	}
	body, err := openapiIndented()
	if err != nil {
		return err
	}
	if len(args) == 1 {
		return os.WriteFile(args[0], body, 0o644)
	}
	_, err = stdout.Write(body)
	return err
}

// openapiIndented is the merged document as indented JSON ending in a
// newline, the form client/openapi.json keeps.
func openapiIndented() ([]byte, error) {
	_, body, err := http.LoadOpenAPI()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, body, "", "  "); err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}
