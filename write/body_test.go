package write

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"overwatch"
)

// timeoutReader fails as a connection past its read deadline does.
type timeoutReader struct{}

func (timeoutReader) Read([]byte) (int, error) { return 0, os.ErrDeadlineExceeded }

// LimitBody passes a body up to its bound and fails, with the code of the
// answer, past it, short of its Content-Length, or on a slow client.
func TestLimitBody(t *testing.T) {
	for _, c := range []struct {
		name     string
		r        io.Reader
		length   int
		max      int
		want     string
		wantCode overwatch.Code
	}{
		{"whole", strings.NewReader("0123456789"), 10, 10, "0123456789", ""},
		{"chunked, at the bound", strings.NewReader("0123456789"), -1, 10, "0123456789", ""},
		{"chunked, past the bound", strings.NewReader("0123456789x"), -1, 10, "", overwatch.TooLarge},
		{"short of its Content-Length", strings.NewReader("01234"), 10, 10, "", overwatch.Invalid},
		{"slow", timeoutReader{}, 10, 10, "", overwatch.Timeout},
		{"empty", strings.NewReader(""), 0, 0, "", ""},
	} {
		got, err := io.ReadAll(LimitBody(c.r, c.length, c.max))
		var oe *overwatch.Error
		switch {
		case c.wantCode == "" && (err != nil || string(got) != c.want):
			t.Errorf("%s: %q %v", c.name, got, err)
		case c.wantCode != "" && (!errors.As(err, &oe) || oe.Code != c.wantCode):
			t.Errorf("%s: %v, want code %v", c.name, err, c.wantCode)
		}
	}
}

// A multipart upload is one part "file" and its closing boundary.
func TestPIMultipartFile(t *testing.T) {
	const file = "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"c.csv\"\r\n\r\nimo,club\n9321483,Gard\n\r\n"
	for body, want := range map[string]string{
		file + "--b--\r\n":    "",
		file + "--b--":        "",
		file:                  "ends before its closing boundary",
		file[:30]:             "ends before its closing boundary",
		file[:70]:             "ends before its closing boundary",
		"":                    "ends before its closing boundary",
		"--b--\r\n":           `no part "file"`,
		file + file + "--b--": `more than one part "file"`,
		strings.Replace(file, `"file"`, `"other"`, 1) + "--b--": `part "other"`,
		strings.Replace(file, `name="file"; `, ``, 1) + "--b--": "without a form-data name",
	} {
		data, err := piMultipartFile(strings.NewReader(body), "b")
		switch {
		case want == "" && (err != nil || string(data) != "imo,club\n9321483,Gard\n"):
			t.Errorf("%q: %q %v", body, data, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%q: %v, want %q", body, err, want)
		}
	}
}
