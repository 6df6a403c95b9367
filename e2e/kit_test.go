package e2e

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// sanctionsDataDir finds shared/data/sanctions above the working directory.
func sanctionsDataDir(t *testing.T) string {
	t.Helper()
	dir, _ := os.Getwd()
	for range 6 {
		d := filepath.Join(dir, "shared", "data", "sanctions")
		if _, err := os.Stat(filepath.Join(d, "sanctions_ofac_sdn_2021-07_full.csv")); err == nil {
			return d
		}
		dir = filepath.Dir(dir)
	}
	t.Skip("the OFAC files of shared/data/sanctions are not here")
	return ""
}

func discardLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// gdeltFixture is a file of sources/gdelt/testdata: built from GDELT's
// documented format (no recorded GDELT response may be redistributed).
func gdeltFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("../sources/gdelt/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func ts(s string) time.Time {
	t, _ := time.Parse(time.RFC3339, s)
	return t
}
