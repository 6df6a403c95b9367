// Package read is the query side: the routes of every GET endpoint, listed
// per area beside their handlers (Routes), request parsing with the tier
// caps, the handlers and the wire types they answer with. Each area
// declares the small store interface it needs, with requests as comparable
// structs, so that its queries go through the explicit read cache
// (Cached); the clickhouse and postgres packages implement them.
package read
