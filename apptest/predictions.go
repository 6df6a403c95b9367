package apptest

import (
	"encoding/json"
	"testing"

	"overwatch/read"
)

// FetchPredictions reads every page of GET /v1/predictions with the query
// (without its leading "?") as the key's account.
func FetchPredictions(t *testing.T, s *TestServer, key, query string) []read.Prediction {
	t.Helper()
	var out []read.Prediction
	cursor := ""
	for {
		path := "/v1/predictions?limit=500&" + query
		if cursor != "" {
			path += "&cursor=" + cursor
		}
		res := s.Do(t, Request{Path: path, Key: key, IP: FreshIP()})
		if res.StatusCode != 200 {
			t.Fatalf("GET %s: %d %s", path, res.StatusCode, res.Body)
		}
		var page struct {
			Predictions []read.Prediction `json:"predictions"`
			Pagination  read.Pagination   `json:"pagination"`
		}
		if err := json.Unmarshal(res.Body, &page); err != nil {
			t.Fatal(err)
		}
		out = append(out, page.Predictions...)
		if !page.Pagination.HasMore {
			return out
		}
		cursor = *page.Pagination.NextCursor
	}
}
