// Package reports renders rows that the read side has already fetched as
// files for download: CSV (RFC 4180, protected against spreadsheet formula
// injection, capped and streamed) and PDF, always to an io.Writer.
//
// It is pure rendering: it imports only the standard library, gocsv and the
// PDF library, and nothing of the project, no database and no Fiber. The
// HTTP layer sets Content-Type and Content-Disposition, chooses the row cap
// from the caller's tier, and hands reports a writer.
package reports
