package market

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func day(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t
}

func approx(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func reader(b []byte) *bytes.Reader { return bytes.NewReader(b) }

func fmtInt(i int) string { return strconv.Itoa(i) }

func parseNum(s string) (float64, error) { return strconv.ParseFloat(s, 64) }
