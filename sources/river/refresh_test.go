package river

import (
	"strings"
	"testing"

	gauge "overwatch/maritime/river"
)

// The OGC API is asked once per gauge for its gauge height; a URL that is
// not http(s) is refused.
func TestRequestURLs(t *testing.T) {
	t.Parallel()
	urls, err := requestURLs("https://api.waterdata.usgs.gov/ogcapi/v0/collections/latest-continuous/items")
	if err != nil || len(urls) != len(gauge.Gauges) || !strings.Contains(urls[0], "monitoring_location_id=USGS-07010000") ||
		!strings.Contains(urls[0], "parameter_code=00065") {
		t.Errorf("OGC requests: %v %v", urls, err)
	}
	if _, err := requestURLs("file:///etc/passwd"); err == nil {
		t.Error("a file URL accepted")
	}
}
