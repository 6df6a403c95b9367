package e2e

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"overwatch"
	"overwatch/apptest"
	"overwatch/route"
	"overwatch/write"
	"runtime"
	"strings"
	"testing"
	"time"
)

// A request that only announces a large body takes no memory for it: one
// announcing more than its route takes (a GET takes none, POST /v1/keys a
// small JSON object) is a 413 at once, with a JSON body, from its headers
// alone, whether or not it carries a key; the P&I import, which takes
// 10 MiB, streams its body, so a client announcing 10 MiB and sending
// nothing holds a few kilobytes. Hundreds of such connections held open
// leave the heap of the process the server runs in flat, and the import
// still takes a real 9 MiB multipart file.
func TestAnnouncedBodiesTakeNoMemory(t *testing.T) {
	s := apptest.StartServer(t, map[string]string{"OVERWATCH_READ_TIMEOUT": "60s"})
	const announced = 10 << 20
	kinds := []struct {
		name, head string
		refused    bool
	}{
		{"public lookup", "GET /v1/ais/any/9321483/location/latest HTTP/1.1\r\nHost: x\r\n", true},
		{"keyed path without a key", "POST /v1/portfolios HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n", true},
		{"key creation", "POST /v1/keys HTTP/1.1\r\nHost: x\r\nX-API-Key: ow_invented\r\nContent-Type: application/json\r\n", true},
		{"import", "POST /v1/pi-coverage/import HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=x\r\n", false},
	}
	heap := func() int64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	// Growth allowed: the connections' own buffers (the server's 8 KiB read
	// buffer and, for an import, the first 8 KiB of its body it waits
	// for), never the bodies announced (10 MiB each: a single one would
	// exceed it).
	const perKind, batch, allowed = 100, 5, 8 << 20
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	before := heap()
	for round := 0; round < perKind/batch; round++ {
		for _, k := range kinds {
			for range batch {
				c, err := net.Dial("tcp", strings.TrimPrefix(s.Base, "http://"))
				if err != nil {
					t.Fatal(err)
				}
				conns = append(conns, c)
				start := time.Now()
				if _, err := fmt.Fprintf(c, "%sContent-Length: %d\r\n\r\n", k.head, announced); err != nil {
					t.Fatal(err)
				}
				if !k.refused {
					continue
				}
				c.SetReadDeadline(time.Now().Add(10 * time.Second)) //nolint:errcheck
				resp, err := http.ReadResponse(bufio.NewReader(c), nil)
				if err != nil {
					t.Fatalf("%s: %v", k.name, err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if took := time.Since(start); resp.StatusCode != 413 || !isErrorJSON(body) || took > 3*time.Second {
					t.Fatalf("%s: %d %s after %v, want a 413 at once", k.name, resp.StatusCode, body, took)
				}
			}
		}
		if grown := heap() - before; grown > allowed {
			t.Fatalf("after %d connections announcing %d bytes each, the heap grew by %.1f MB", len(conns), announced, float64(grown)/(1<<20))
		}
	}
	t.Logf("%d connections announcing %d bytes each: the heap grew by %.2f MB", len(conns), announced, float64(heap()-before)/(1<<20))

	// The import still takes a real file of 9 MiB, sent as multipart.
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanStarter)
	var csv bytes.Buffer
	csv.WriteString("imo,club,vessel_name,effective_from,effective_to\n")
	rows := 0
	for first6 := uint32(100000); csv.Len() < 9<<20; first6++ {
		fmt.Fprintf(&csv, "%d%d,Gard,VESSEL %d,2025-02-20,2026-02-20\n", first6, overwatch.IMOCheckDigit(first6), first6)
		rows++
	}
	var mp bytes.Buffer
	w := multipart.NewWriter(&mp)
	part, _ := w.CreateFormFile("file", "cover.csv")
	part.Write(csv.Bytes()) //nolint:errcheck
	w.Close()
	r := s.Do(t, apptest.Request{Method: http.MethodPost, Path: "/v1/pi-coverage/import", IP: apptest.FreshIP(), Key: key,
		Header: map[string]string{"Content-Type": w.FormDataContentType()}, Body: mp.String()})
	var ans write.PICoverageImport
	if err := json.Unmarshal(r.Body, &ans); r.StatusCode != 200 || err != nil || ans.RowsProcessed != rows || ans.Stored != rows || ans.RejectedCount != 0 {
		t.Fatalf("a %d-byte multipart file of %d rows: %d %.300s", mp.Len(), rows, r.StatusCode, r.Body)
	}
}

// A compressed body is bounded once decompressed: a small gzip of a large
// body is a 413, not a buffer the size of what it expands to, whether or
// not the key is valid; a compressed body within the bound is read as
// the body it compresses.
func TestCompressedBodiesAreBounded(t *testing.T) {
	s := apptest.StartServer(t, nil)
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanStarter)
	gz := func(s string) string {
		var b bytes.Buffer
		z := gzip.NewWriter(&b)
		z.Write([]byte(s)) //nolint:errcheck
		z.Close()
		return b.String()
	}
	// Raw, since the OpenAPI document lists the 413 among the errors of
	// every request, not of each operation.
	send := func(key, body string) (int, string) {
		t.Helper()
		status, _, b := rawExchange(t, s, fmt.Sprintf("POST /v1/keys HTTP/1.1\r\nHost: x\r\nX-API-Key: %s\r\n"+
			"Content-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n%s", key, len(body), body), 0)
		if status >= 400 && !isErrorJSON(b) {
			t.Errorf("%d without a JSON error: %s", status, b)
		}
		return status, string(b)
	}
	bomb := gz(`{"name":"` + strings.Repeat("a", 8<<20) + `"}`)
	if len(bomb) > route.SmallBody {
		t.Fatalf("the compressed body is %d bytes", len(bomb))
	}
	for _, c := range []struct {
		key, body string
		status    int
		contains  string
	}{
		{key, bomb, 413, "request body too large (at most 65536 bytes)"},
		{"ow_invented", bomb, 413, "request body too large"},
		{key, gz(`{"name":"compressed"}`), 201, `"name":"compressed"`},
		{key, "not gzip", 400, "could not be decompressed"},
	} {
		if status, body := send(c.key, c.body); status != c.status || !strings.Contains(body, c.contains) {
			t.Errorf("%d-byte body: %d %.200s, want %d with %q", len(c.body), status, body, c.status, c.contains)
		}
	}
}
