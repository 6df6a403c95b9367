package read

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/coder/websocket"
	"github.com/gofiber/fiber/v2"

	"overwatch/live"
)

// serveWebSocket upgrades the connection and streams the subscription,
// one text message per event (its JSON message). Fiber serves fasthttp,
// and coder/websocket works on net/http: the connection is hijacked from
// fasthttp (which then writes no response) and handed to
// websocket.Accept through hijackWriter, which writes Accept's 101
// answer on the connection itself. (Fiber's net/http adaptor does not
// do: it hijacks without writing the handler's status line.) The server
// pings every heartbeat; messages from the client are not expected
// (a data message closes the stream). When the hub drops the subscriber,
// the close frame says why: 1008 (policy) for a slow consumer, 1013 (try
// again later) when the server fell behind, 1001 (going away) at
// shutdown.
func serveWebSocket(c *fiber.Ctx, sub *live.Subscription, release func(), heartbeat time.Duration) error {
	if c.Get("Sec-WebSocket-Version") != "13" || c.Get("Sec-WebSocket-Key") == "" {
		sub.Close()
		release()
		return invalid("Sec-WebSocket-Version", "a WebSocket handshake needs Sec-WebSocket-Version: 13 and a Sec-WebSocket-Key")
	}
	req := &http.Request{
		Method: http.MethodGet, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{}, Host: string(c.Request().Host()), URL: &url.URL{Path: c.Path()},
	}
	c.Request().Header.VisitAll(func(k, v []byte) { req.Header.Add(string(k), string(v)) })
	fctx := c.Context()
	fctx.HijackSetNoResponse(true)
	fctx.Hijack(func(conn net.Conn) {
		defer release()
		defer sub.Close()
		w := &hijackWriter{conn: conn, header: http.Header{}, frames: &heldWriter{conn: conn, timeout: streamWriteTimeout}}
		ws, err := websocket.Accept(w, req, &websocket.AcceptOptions{
			// The key authenticates, not a cookie: any page may open it.
			InsecureSkipVerify: true,
			CompressionMode:    websocket.CompressionDisabled,
		})
		if err != nil {
			w.fail()
			return
		}
		streamWebSocket(ws, w.frames, sub, heartbeat)
	})
	return nil
}

// streamWebSocket writes the subscription's events until it ends or the
// client goes, pinging it every heartbeat. Events that are waiting when
// one is taken are written with it in one write to the connection
// (frames held).
func streamWebSocket(conn *websocket.Conn, frames *heldWriter, sub *live.Subscription, heartbeat time.Duration) {
	defer conn.CloseNow() //nolint:errcheck
	ctx := conn.CloseRead(context.Background())
	write := func(msg []byte) error {
		wctx, cancel := context.WithTimeout(ctx, streamWriteTimeout)
		defer cancel()
		return conn.Write(wctx, websocket.MessageText, msg)
	}
	// batch writes e and the events waiting behind it (at most
	// wsBatchMax) with one write to the connection.
	batch := func(e *live.Event) error {
		waiting := min(len(sub.C()), wsBatchMax)
		if waiting == 0 {
			return write(e.JSON)
		}
		frames.hold()
		err := write(e.JSON)
		for i := 0; err == nil && i < waiting; i++ {
			next, ok := <-sub.C() // there: only this goroutine takes from it
			if !ok {
				break
			}
			err = write(next.JSON)
		}
		if rerr := frames.release(); err == nil {
			err = rerr
		}
		return err
	}
	frames.hold()
	for _, e := range sub.Backlog() {
		if write(e.JSON) != nil {
			frames.release() //nolint:errcheck // the stream ends either way
			return
		}
	}
	if frames.release() != nil {
		return
	}
	go pings(ctx, conn, heartbeat)
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
			if batch(e) != nil {
				return
			}
		}
	}
}

// pings the client every heartbeat, closing the connection when a pong
// does not come within a write timeout.
func pings(ctx context.Context, conn *websocket.Conn, heartbeat time.Duration) {
	t := time.NewTicker(heartbeat)
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

// hijackWriter is the http.ResponseWriter websocket.Accept answers
// through, on a connection fasthttp has handed over: Hijack writes the
// status line and headers Accept set (its 101), and a refusal (fail)
// writes Accept's status and body.
type hijackWriter struct {
	conn   net.Conn
	frames *heldWriter // under the WebSocket's frames, once hijacked
	header http.Header
	status int
	body   bytes.Buffer
	done   bool
}

func (w *hijackWriter) Header() http.Header { return w.header }

func (w *hijackWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *hijackWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(b)
}

// writeHead writes the status line and the headers.
func (w *hijackWriter) writeHead(bw *bufio.Writer) {
	fmt.Fprintf(bw, "HTTP/1.1 %d %s\r\n", w.status, http.StatusText(w.status))
	w.header.Write(bw) //nolint:errcheck // the flush reports it
	bw.WriteString("\r\n")
}

// Hijack implements http.Hijacker: the answer so far is written, and the
// connection is the WebSocket's from then on.
func (w *hijackWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if w.done {
		return nil, nil, errors.New("hijacked already")
	}
	w.done = true
	bw := bufio.NewWriter(w.conn)
	w.writeHead(bw)
	if err := bw.Flush(); err != nil {
		return nil, nil, err
	}
	return w.conn, bufio.NewReadWriter(bufio.NewReader(w.conn), bufio.NewWriter(w.frames)), nil
}

// fail writes Accept's refusal, when it made one.
func (w *hijackWriter) fail() {
	if w.done || w.status == 0 {
		return
	}
	w.done = true
	w.header.Set("Content-Length", fmt.Sprint(w.body.Len()))
	w.header.Set("Connection", "close")
	bw := bufio.NewWriter(w.conn)
	w.writeHead(bw)
	bw.Write(w.body.Bytes()) //nolint:errcheck
	bw.Flush()               //nolint:errcheck
}
