package http

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"mime"
	"path"
	"strings"
	"sync"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// pageNames are the pages served beside the API, each at /<name> from the
// embedded build of web/src/<name>.
var pageNames = []string{"docs", "map", "dashboard"}

// pageCSP is the content security policy of the pages: scripts, styles,
// images, fonts and calls from the service's own origin only (images and
// fonts also as data: URLs, which the bundles inline), no plugins, no
// framing, forms posting only here.
const pageCSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; " +
	"font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; " +
	"form-action 'self'; frame-ancestors 'none'"

// mountPages serves the pages: GET /<page> is its index.html, GET
// /<page>/<file> its scripts, styles and assets, GET /licenses/<dep>.txt
// the licences of what the bundles hold, GET /favicon.svg their icon. Answers are gzipped for clients
// that accept it (once per file, then kept).
func mountPages(app *fiber.App, pages fs.FS) {
	p := &pageFiles{fsys: pages, gz: map[string][]byte{}}
	for _, name := range pageNames {
		index := name + "/index.html"
		app.Get("/"+name, func(c *fiber.Ctx) error { return p.send(c, index) })
		app.Get("/"+name+"/*", func(c *fiber.Ctx) error { return p.send(c, name+"/"+c.Params("*")) })
	}
	app.Get("/licenses/*", func(c *fiber.Ctx) error { return p.send(c, "licenses/"+c.Params("*")) })
	app.Get("/favicon.svg", func(c *fiber.Ctx) error { return p.send(c, "favicon.svg") })
}

// pageFiles serves files of the pages' build with their gzipped forms.
type pageFiles struct {
	fsys fs.FS
	mu   sync.Mutex
	gz   map[string][]byte
}

// send writes the file name of the build with the pages' headers, or the
// one error path's 404 when there is no such file.
func (p *pageFiles) send(c *fiber.Ctx, name string) error {
	name = path.Clean(name)
	if !fs.ValidPath(name) || strings.HasPrefix(name, "../") {
		return overwatch.Errorf(overwatch.NotFound, "no such page")
	}
	body, err := fs.ReadFile(p.fsys, name)
	if err != nil {
		return overwatch.Errorf(overwatch.NotFound, "no such page")
	}
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = fiber.MIMEOctetStream
	}
	c.Set(fiber.HeaderContentType, ctype)
	c.Set(fiber.HeaderContentSecurityPolicy, pageCSP)
	c.Set(fiber.HeaderXFrameOptions, "DENY")
	c.Set(fiber.HeaderReferrerPolicy, "no-referrer")
	c.Set(fiber.HeaderCacheControl, "no-cache")
	c.Set(fiber.HeaderVary, fiber.HeaderAcceptEncoding)
	if len(body) > 1024 && strings.Contains(c.Get(fiber.HeaderAcceptEncoding), "gzip") {
		c.Set(fiber.HeaderContentEncoding, "gzip")
		return c.Send(p.gzipped(name, body))
	}
	return c.Send(body)
}

// gzipped returns body gzipped, compressing it on the first call for name.
func (p *pageFiles) gzipped(name string, body []byte) []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	if z, ok := p.gz[name]; ok {
		return z
	}
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(body) // a bytes.Buffer takes every write
	w.Close()
	p.gz[name] = buf.Bytes()
	return p.gz[name]
}
