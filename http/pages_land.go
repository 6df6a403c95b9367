package http

import (
	"bytes"
	"compress/gzip"
	"strings"
	"sync"

	"github.com/gofiber/fiber/v2"

	"overwatch/maritime/geo"
)

// The map's basemap: the service's own land mask (maritime/geo, Natural
// Earth 1:10m land) served as GeoJSON at GET /map/land.geojson, so that
// /map needs no tile server. The rings are simplified (Douglas-Peucker,
// landToleranceDeg) and the smallest islands left out, which takes the
// mask's 4,062 rings of 409,069 vertices down to a document of about 970 kB
// (290 kB gzipped), built once on the first request and kept.

const (
	// landToleranceDeg is how far (degrees) a simplified coastline may
	// stray from the mask's: about 3 km, under a pixel at zoom 5.
	landToleranceDeg = 0.03
	// landMinSpanDeg drops rings whose bounding box is smaller than this
	// (degrees) on both sides: islets invisible at the map's zooms.
	landMinSpanDeg = 0.1
)

// landDoc is the GeoJSON and its gzipped form, built once.
var landDoc = sync.OnceValues(func() ([]byte, []byte) {
	body := geo.LandGeoJSON(landToleranceDeg, landMinSpanDeg)
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(body) // a bytes.Buffer takes every write
	w.Close()
	return body, buf.Bytes()
})

// mountLand serves GET /map/land.geojson. It is mounted before the pages,
// whose /map/* would otherwise answer it.
func mountLand(app *fiber.App) {
	go landDoc() // build it now, not on the first page load (about a second)
	app.Get("/map/land.geojson", func(c *fiber.Ctx) error {
		body, gz := landDoc()
		c.Set(fiber.HeaderContentType, "application/geo+json")
		c.Set(fiber.HeaderContentSecurityPolicy, pageCSP)
		c.Set(fiber.HeaderCacheControl, "public, max-age=86400")
		c.Set(fiber.HeaderVary, fiber.HeaderAcceptEncoding)
		if strings.Contains(c.Get(fiber.HeaderAcceptEncoding), "gzip") {
			c.Set(fiber.HeaderContentEncoding, "gzip")
			return c.Send(gz)
		}
		return c.Send(body)
	})
}
