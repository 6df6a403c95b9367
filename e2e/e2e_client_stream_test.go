package e2e

import (
	"context"
	"overwatch/client"
	"testing"
)

// callClientStream opens the live stream through the generated client
// (Server-Sent Events: the client's GET has no WebSocket handshake).
func callClientStream(ctx context.Context, t *testing.T, c *client.ClientWithResponses) {
	t.Helper()
	bbox := "-10,45,30,65"
	resp, err := c.StreamEvents(ctx, &client.StreamEventsParams{Bbox: &bbox})
	if err != nil {
		t.Fatalf("stream: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Errorf("stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}
