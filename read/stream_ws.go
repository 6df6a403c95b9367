package read

import (
	"context"
	"net/http"
	"time"

	"github.com/coder/websocket"
	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"

	"overwatch/live"
)

// serveWebSocket upgrades the connection and streams the subscription,
// one text message per event (its JSON message). Fiber serves fasthttp;
// the upgrade is coder/websocket's, on net/http, through Fiber's adaptor,
// which hands it the hijacked connection. The server pings every
// StreamHeartbeat; messages from the client are not expected (a data
// message closes the stream with 1003). When the hub drops the
// subscriber, the close frame says why: 1008 (policy) for a slow
// consumer, 1013 (try again later) when the server fell behind, 1001
// (going away) at shutdown.
func serveWebSocket(c *fiber.Ctx, sub *live.Subscription, release func()) error {
	return adaptor.HTTPHandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer release()
		defer sub.Close()
		conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{
			// The key authenticates, not a cookie: any page may open it.
			InsecureSkipVerify: true,
			CompressionMode:    websocket.CompressionDisabled,
		})
		if err != nil {
			return // Accept has answered the client
		}
		defer conn.CloseNow() //nolint:errcheck
		// The request's context ends with the handler's call; the stream
		// lives on the connection.
		ctx := conn.CloseRead(context.Background())
		write := func(msg []byte) error {
			wctx, cancel := context.WithTimeout(ctx, streamWriteTimeout)
			defer cancel()
			return conn.Write(wctx, websocket.MessageText, msg)
		}
		for _, e := range sub.Backlog() {
			if write(e.JSON) != nil {
				return
			}
		}
		go pings(ctx, conn)
		for {
			select {
			case <-ctx.Done():
				return // the client closed, or sent what it should not
			case e, ok := <-sub.C():
				if !ok {
					code := websocket.StatusNormalClosure
					switch sub.Reason() {
					case live.DropSlowConsumer:
						code = websocket.StatusPolicyViolation
					case live.DropServerBehind:
						code = websocket.StatusTryAgainLater
					case live.DropShutdown:
						code = websocket.StatusGoingAway
					}
					conn.Close(code, dropMessage(sub.Reason())) //nolint:errcheck // the stream ends either way
					return
				}
				if write(e.JSON) != nil {
					return
				}
			}
		}
	})(c)
}

// pings the client every StreamHeartbeat, closing the connection when a
// pong does not come within a write timeout.
func pings(ctx context.Context, conn *websocket.Conn) {
	t := time.NewTicker(StreamHeartbeat)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			pctx, cancel := context.WithTimeout(ctx, streamWriteTimeout)
			err := conn.Ping(pctx)
			cancel()
			if err != nil {
				conn.CloseNow() //nolint:errcheck
				return
			}
		}
	}
}
