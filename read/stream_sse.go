package read

import (
	"bufio"
	"encoding/json"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch/live"
)

// serveSSE streams the subscription as Server-Sent Events: each event an
// `id:` line (its id, which a reconnecting EventSource sends back as
// Last-Event-ID) and a `data:` line (its JSON message); a comment line
// every heartbeat while idle; and, when the hub drops the
// subscriber, a last `event: error` whose data is {"error", "reason"}.
// The stream ends when the client stops taking bytes (a failed write, or
// none taken for streamWriteTimeout).
func serveSSE(c *fiber.Ctx, sub *live.Subscription, release func(), heartbeat time.Duration) {
	c.Set(fiber.HeaderContentType, "text/event-stream")
	c.Set("X-Accel-Buffering", "no") // proxies: do not buffer the stream
	fctx := c.Context()              // outlives c, which Fiber reuses once the handler returns
	// streamBody (the tracks' streamed body) has fasthttp call the writer
	// on the connection's own writer: each flush is one chunk, at once.
	streamBody(c, func(w *bufio.Writer) error {
		flush := func() error {
			_ = fctx.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
			return w.Flush()
		}
		w.WriteString("retry: 2000\n\n") //nolint:errcheck // the flush reports it
		for _, e := range sub.Backlog() {
			writeSSE(w, e)
		}
		if err := flush(); err != nil {
			return err
		}
		beat := time.NewTicker(heartbeat)
		defer beat.Stop()
		for {
			select {
			case e, ok := <-sub.C():
				if !ok {
					if reason := sub.Reason(); reason != "" {
						body, _ := json.Marshal(map[string]string{"error": dropMessage(reason), "reason": reason})
						w.WriteString("event: error\ndata: ") //nolint:errcheck
						w.Write(body)                         //nolint:errcheck
						w.WriteString("\n\n")                 //nolint:errcheck
					}
					return nil // the body ends: the client reconnects
				}
				writeSSE(w, e)
				if len(sub.C()) == 0 { // flush once what is waiting is written
					if err := flush(); err != nil {
						return err
					}
				}
			case <-beat.C:
				w.WriteString(": keep-alive\n\n") //nolint:errcheck
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}, func() {
		sub.Close()
		release()
	})
}

func writeSSE(w *bufio.Writer, e *live.Event) {
	var id [20]byte
	w.WriteString("id: ")                         //nolint:errcheck // the flush reports it
	w.Write(strconv.AppendUint(id[:0], e.ID, 10)) //nolint:errcheck
	w.WriteString("\ndata: ")                     //nolint:errcheck
	w.Write(e.JSON)                               //nolint:errcheck
	w.WriteString("\n\n")                         //nolint:errcheck
}
