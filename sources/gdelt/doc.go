// Package gdelt is the GDELT news source: its parsers, its client
// (Client) and the refresh of the news signals (News), one subject at a
// time, paced to GDELT's one request in 5 seconds.
//
// Publisher: the GDELT Project (free use with citation of GDELT as the
// source). Base URL: OVERWATCH_GDELT_URL, the DOC 2.0 API. A subject whose
// query fails is stored as it was and the run goes on; a rate-limit
// answer or no answer stops the run, and the next run resumes with that
// subject. The signals stored stay whatever fails.
//
// The parsers read the answers of the GDELT DOC 2.0 API in ArtList and
// ToneChart modes (JSON) and builds their queries: the articles with their
// seen dates (20240102T150000Z, UTC), the tone bins with the articles each
// lists, the plain-text errors GDELT sends with HTTP 200
// (query errors, the rate-limit notice), and the invalid characters its
// JSON sometimes holds. No recorded GDELT response may be redistributed:
// the test fixtures are built from the documented format
// (../shared/data/news/NOTES.md) and say so.
package gdelt
