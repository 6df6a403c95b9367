package sanctions

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	domain "overwatch/maritime/sanctions"
	"overwatch/sources"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const testSDN = "15036,\"ARTAVIL\",\"vessel\",\"IRAN\",-0- ,\"T2EU4\",\"Crude/Oil Products Tanker\",\"99,144\",\"56,068\",\"Iran\",-0- ," +
	"\"Vessel Registration Identification IMO 9187629; MMSI 572469210; Linked To: NATIONAL IRANIAN TANKER COMPA\"\r\n"

// sanctionsServer serves the three files under /exports/.
func sanctionsServer(t *testing.T, files map[string]string) (*httptest.Server, *atomic.Int32) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		body, ok := files[strings.TrimPrefix(r.URL.Path, "/exports/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func TestFetchSanctions(t *testing.T) {
	files := map[string]string{SDNFile: testSDN, ALTFile: "15036,1,\"fka\",\"ABADAN\",-0- \r\n", CommentsFile: "15036,\"NY.\"\r\n"}
	srv, hits := sanctionsServer(t, files)
	ctx := context.Background()
	sdn, alt, comments, err := Fetch(ctx, srv.URL+"/exports") // no trailing slash
	if err != nil {
		t.Fatal(err)
	}
	if string(sdn) != files[SDNFile] || string(alt) != files[ALTFile] || string(comments) != files[CommentsFile] || hits.Load() != 3 {
		t.Errorf("fetched %q %q %q in %d requests", sdn, alt, comments, hits.Load())
	}
	store := &fakeSanctionsStore{}
	n, err := Replace(ctx, nil, store, srv.URL+"/exports/", "OFAC SDN")
	if err != nil || n != 1 || store.list != "OFAC SDN" || len(store.entries) != 1 {
		t.Fatalf("refresh: %d, %v, %+v", n, err, store)
	}
	if e := store.entries[0]; e.IMO != 9187629 || e.Aliases[0] != "ABADAN" || !strings.HasSuffix(e.Remarks, "COMPANY.") {
		t.Errorf("refreshed %+v", e)
	}
	var failures sources.Failures
	if res, err := Refresh(store, srv.URL+"/exports/", "OFAC SDN", &failures)(ctx); err != nil || res.Rows != 1 || len(failures.Counts()) != 0 {
		t.Errorf("refresh: %+v %v", res, err)
	}

	// A missing file, a bad URL, a broken file: errors, nothing replaced.
	delete(files, CommentsFile)
	store.entries = nil
	if _, err := Replace(ctx, nil, store, srv.URL+"/exports/", "OFAC SDN"); err == nil || !strings.Contains(err.Error(), "404") || store.entries != nil {
		t.Errorf("missing file: %v", err)
	}
	files[CommentsFile] = ""
	files[SDNFile] = "1,\"A\",\"vessel\"\r\n"
	if _, err := Replace(ctx, nil, store, srv.URL+"/exports/", "OFAC SDN"); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("broken file: %v", err)
	}
	if _, _, _, err := Fetch(ctx, "file:///etc/"); err == nil {
		t.Error("a file URL was fetched")
	}
	if _, err := Refresh(store, "file:///etc/", "OFAC SDN", &failures)(ctx); err == nil || failures.Counts()["ofac_sdn"] != 1 {
		t.Errorf("a failed refresh: %v, failures %v", err, failures.Counts())
	}
}

func TestFetchSanctionsLimits(t *testing.T) {
	big := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := bytes.Repeat([]byte("x"), 1<<20)
		for range maxBytes>>20 + 1 {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer big.Close()
	if _, _, _, err := Fetch(context.Background(), big.URL); err == nil || !strings.Contains(err.Error(), "larger than 50 MB") {
		t.Errorf("oversized file: %v", err)
	}
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	defer close(release)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, _, _, err := Fetch(ctx, slow.URL); !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Errorf("slow server: %v after %v", err, time.Since(start))
	}
}

type fakeSanctionsStore struct {
	list    string
	entries []domain.Entry
}

func (f *fakeSanctionsStore) ReplaceSanctions(_ context.Context, list string, entries []domain.Entry) error {
	f.list, f.entries = list, entries
	return nil
}
