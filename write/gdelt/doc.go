// Package gdelt reads the answers of the GDELT DOC 2.0 API in ArtList and
// ToneChart modes (JSON) and builds their queries: the articles with their
// seen dates (20240102T150000Z, UTC), the tone bins with the articles each
// lists, the plain-text errors GDELT sends with HTTP 200
// (query errors, the rate-limit notice), and the invalid characters its
// JSON sometimes holds. No recorded GDELT response may be redistributed:
// the test fixtures are built from the documented format
// (../shared/data/news/NOTES.md) and say so.
package gdelt
