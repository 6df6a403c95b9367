package sar

import "time"

// CatalogueStatus is what the catalogue client says of an area and day: the
// catalogue (asf, cdse, or "" when none is configured), its status
// (fetched: answered now or within the cache's life; cached: the fetch
// failed or waits on the catalogue's rate limit and the cache answers;
// off: no catalogue configured, the stored products answer, the bundled
// samples among them) and when the catalogue last answered for the area.
type CatalogueStatus struct {
	Catalogue string
	Status    string
	FetchedAt time.Time
}
