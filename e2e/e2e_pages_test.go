package e2e

import (
	"io"
	"net/http"
	"overwatch/apptest"
	"strings"
	"testing"
)

// The routes of the pages through the real server (they are for people,
// not API operations, so the OpenAPI document does not list them; the
// browser tests drive them): each page and its files with the pages'
// content security policy, the licences, the icon and the map's land,
// and the one error path's 404 for a file the build does not have.
func TestPageRoutes(t *testing.T) {
	chURL, pgURL := apptest.Stores(t)
	s := apptest.StartServer(t, map[string]string{"CLICKHOUSE_URL": chURL, "DATABASE_URL": pgURL})
	get := func(path string) apptest.Response {
		t.Helper()
		resp, err := apptest.HTTPClient.Get(s.Base + path) // not s.do: the document lists API operations only
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return apptest.Response{Response: resp, Body: body}
	}
	for _, c := range []struct{ path, ctype, holds string }{
		{"/docs", "text/html", "/docs/main.js"},
		{"/map", "text/html", "/map/main.js"},
		{"/dashboard", "text/html", "/dashboard/main.js"},
		{"/docs/main.css", "text/css", ""},
		{"/map/main.js", "javascript", ""},
		{"/map/land.geojson", "json", "FeatureCollection"},
		{"/licenses/leaflet.txt", "text/plain", "Copyright"},
		{"/favicon.svg", "image/svg+xml", "<svg"},
	} {
		r := get(c.path)
		if r.StatusCode != http.StatusOK || !strings.Contains(r.Header.Get("Content-Type"), c.ctype) || !strings.Contains(string(r.Body), c.holds) {
			t.Errorf("GET %s: %d %s (%d bytes)", c.path, r.StatusCode, r.Header.Get("Content-Type"), len(r.Body))
		}
		if c.path != "/map/land.geojson" && !strings.Contains(r.Header.Get("Content-Security-Policy"), "default-src 'self'") {
			t.Errorf("GET %s: no content security policy", c.path)
		}
	}
	for _, path := range []string{"/docs/nope.js", "/licenses/../web.go", "/map/../go.mod"} {
		if r := get(path); r.StatusCode != http.StatusNotFound || !strings.Contains(string(r.Body), `"error"`) {
			t.Errorf("GET %s: %d %s", path, r.StatusCode, r.Body)
		}
	}
}
