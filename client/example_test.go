package client_test

import (
	"context"
	"fmt"
	"log"
	"net/http"

	"overwatch/client"
)

// A client with the key in X-API-Key, listing the vessels at a port.
func Example() {
	key := "ow_..." // from `overwatch keys create`
	c, err := client.NewClientWithResponses("http://localhost:8080/v1",
		client.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
			r.Header.Set("X-API-Key", key)
			return nil
		}))
	if err != nil {
		log.Fatal(err)
	}
	port := "rotterdam"
	resp, err := c.ListVesselsWithResponse(context.Background(), &client.ListVesselsParams{Port: &port})
	if err != nil {
		log.Fatal(err)
	}
	if resp.JSON200 == nil { // an error status: the answer's {"error": ...}
		log.Fatalf("%d %s", resp.StatusCode(), resp.Body)
	}
	for _, v := range resp.JSON200.Vessels {
		fmt.Println(v.ImoNumber, v.LastSeen) // nullable fields are pointers: v.Name, v.Flag, ...
	}
}
