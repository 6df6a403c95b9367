// Package web holds the pages the service serves beside its API: /docs
// (the OpenAPI document rendered for people, with "try it"), /map (vessels,
// ports and risk events on the service's own land polygons) and /dashboard
// (charts of the analytics). Their sources are in src/; `make web` builds
// them with esbuild into dist/, which is committed and embedded here, so
// the binary serves them with no npm step and no network beyond itself.
package web

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Pages returns the built pages: <page>/index.html, <page>/main.js,
// <page>/main.css and licenses/.
func Pages() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // dist is embedded: Sub fails only on an invalid name
	}
	return sub
}
