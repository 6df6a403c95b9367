// Package browser holds the tests of the pages for people (/docs, /map,
// /dashboard) in headless Chromium against the real service started in
// process. They skip without Chromium unless CI is set; run them with
// `go test ./browser/`.
package browser
