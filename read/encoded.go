package read

import (
	"context"
	"encoding/json"

	"github.com/gofiber/fiber/v2"
)

// Encoded turns a query of rows into the query of the JSON body that
// answers them, {"<field>": [present(row)...]}, so that a cached answer is
// encoded once per table version rather than once per request: the
// largest answers (hundreds of rows, 100-250 kB) otherwise spend most of
// a request's time in encoding/json.
func Encoded[K comparable, R, T any](q Query[K, []R], field string, present func(R) T) Query[K, []byte] {
	return func(ctx context.Context, req K) ([]byte, error) {
		rows, err := q(ctx, req)
		if err != nil {
			return nil, err
		}
		out := make([]T, len(rows))
		for i, r := range rows {
			out[i] = present(r)
		}
		return json.Marshal(map[string][]T{field: out})
	}
}

// sendJSON answers an encoded JSON body.
func sendJSON(c *fiber.Ctx, body []byte) error {
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(body)
}
