package e2e

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"overwatch"
	"overwatch/apptest"
	"strings"
	"testing"
	"time"
)

// A request framed ambiguously or malformed (RFC 9112) is a 400 with a
// JSON body before any route sees it, and its connection is closed: what
// follows on it (here, a second request a proxy in front might have read
// as part of the first one's body) is never read as a request.
func TestRequestFramingIsStrict(t *testing.T) {
	s := apptest.StartServer(t, nil)
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanStarter)
	const smuggled = "GET /v1/ais/any/9321483/location/latest HTTP/1.1\r\nHost: x\r\n\r\n"
	cases := []struct{ name, request, message string }{
		{"two Content-Length headers", "POST /v1/keys HTTP/1.1\r\nHost: x\r\nX-API-Key: " + key + "\r\nContent-Type: application/json\r\n" +
			"Content-Length: 2\r\nContent-Length: 63\r\n\r\n{}" + smuggled, "only one Content-Length"},
		{"two equal Content-Length headers", "POST /v1/keys HTTP/1.1\r\nHost: x\r\nX-API-Key: " + key + "\r\n" +
			"Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}" + smuggled, "only one Content-Length"},
		{"Transfer-Encoding: identity", "POST /v1/keys HTTP/1.1\r\nHost: x\r\nX-API-Key: " + key + "\r\n" +
			"Transfer-Encoding: identity\r\n\r\n{}" + smuggled, "Transfer-Encoding"},
		{"HTTP/1.1 without Host", "GET /v1/ais/any/9321483/location/latest HTTP/1.1\r\n\r\n" + smuggled, "Host"},
		{"absolute form without Host", "GET http://x/v1/ais/any/9321483/location/latest HTTP/1.1\r\n\r\n" + smuggled, "Host"},
		{"folded header (obs-fold)", "GET /v1/ais/any/9321483/location/latest HTTP/1.1\r\nHost: x\r\nX-Note: a\r\n b\r\n\r\n" + smuggled, "folded"},
		{"folded Content-Length", "POST /v1/keys HTTP/1.1\r\nHost: x\r\nX-API-Key: " + key + "\r\nContent-Length:\r\n\t2\r\n\r\n{}" + smuggled, ""},
		{"NUL in a header value", "GET /v1/ais/any/9321483/location/latest HTTP/1.1\r\nHost: x\r\nX-Note: a\x00b\r\n\r\n" + smuggled, ""},
		{"bare LF line end", "GET /v1/ais/any/9321483/location/latest HTTP/1.1\r\nHost: x\nX-Note: a\r\n\r\n" + smuggled, "bare LF"},
		{"bare LF ending the headers", "POST /v1/keys HTTP/1.1\r\nHost: x\r\nX-API-Key: " + key + "\r\nContent-Length: 67\r\n\n{}\r\n\r\n" + smuggled, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", strings.TrimPrefix(s.Base, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			conn.SetDeadline(time.Now().Add(10 * time.Second)) //nolint:errcheck
			if _, err := io.WriteString(conn, c.request); err != nil {
				t.Fatal(err)
			}
			br := bufio.NewReader(conn)
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 400 || !isErrorJSON(body) || !strings.Contains(string(body), c.message) {
				t.Errorf("%d %s, want 400 with %q", resp.StatusCode, body, c.message)
			}
			if resp.Header.Get("X-Content-Type-Options") != "nosniff" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
				t.Errorf("headers %v", resp.Header)
			}
			// The connection is closed: no second answer.
			if next, err := http.ReadResponse(br, nil); !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
				status := 0
				if next != nil {
					status = next.StatusCode
				}
				t.Errorf("after the refusal: %d %v, want the connection closed", status, err)
			}
		})
	}
	// A sound request still goes through, chunked included.
	status, _, body := rawExchange(t, s, "POST /v1/keys HTTP/1.1\r\nHost: x\r\nX-API-Key: "+key+"\r\nContent-Type: application/json\r\n"+
		"Transfer-Encoding: chunked\r\n\r\nd\r\n{\"name\":\"ci\"}\r\n0\r\n\r\n", 0)
	if status != 201 {
		t.Errorf("a chunked key creation: %d %s", status, body)
	}
}
