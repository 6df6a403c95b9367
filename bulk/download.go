package bulk

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
)

// Download serves GET /v1/exports/{id}/download: the completed export's
// file with its media type and file name, resumable: a single byte range
// (Range: bytes=a-b, a- or -n) is a 206 with Content-Range, one past the
// end a 416 (Content-Range: bytes */size); If-Range with another ETag
// sends the whole file. An expired export is a 410, one not completed a
// 409 naming its status.
func Download(store Store, dir string, now func() time.Time) fiber.Handler {
	return func(c *fiber.Ctx) error {
		e, err := own(c, store)
		if err != nil {
			return err
		}
		e = view(e, now(), "")
		switch e.Status {
		case Expired:
			return overwatch.Errorf(overwatch.Gone, "export %s expired at %s; its file is deleted", e.ID, e.ExpiresAt.UTC().Format(time.RFC3339))
		case Completed:
		default:
			return overwatch.Errorf(overwatch.Conflict, "export %s is %s: its file can be downloaded once its status is completed", e.ID, e.Status)
		}
		f, err := os.Open(filepath.Join(dir, filepath.Base(e.File)))
		if errors.Is(err, os.ErrNotExist) {
			return overwatch.Errorf(overwatch.Gone, "export %s's file is deleted", e.ID)
		}
		if err != nil {
			return err
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return err
		}
		size := st.Size()
		etag := `"` + e.ID + "-" + strconv.FormatInt(size, 10) + `"`
		c.Set(fiber.HeaderContentType, e.Format.ContentType())
		c.Set(fiber.HeaderContentDisposition, contentDisposition(e))
		c.Set(fiber.HeaderAcceptRanges, "bytes")
		c.Set(fiber.HeaderETag, etag)
		start, end := int64(0), size-1
		status := fiber.StatusOK
		if rng := c.Get(fiber.HeaderRange); rng != "" && (c.Get(fiber.HeaderIfRange) == "" || c.Get(fiber.HeaderIfRange) == etag) {
			s, en, ok, satisfiable := parseRange(rng, size)
			if ok && !satisfiable {
				f.Close()
				c.Set(fiber.HeaderContentRange, "bytes */"+formatSize(size))
				return overwatch.Errorf(overwatch.RangeInvalid, "range %s is outside the file's %d bytes", truncate(rng, 60), size)
			}
			if ok {
				start, end, status = s, en, fiber.StatusPartialContent
				c.Set(fiber.HeaderContentRange, "bytes "+formatSize(start)+"-"+formatSize(end)+"/"+formatSize(size))
			}
		}
		if _, err := f.Seek(start, io.SeekStart); err != nil {
			f.Close()
			return err
		}
		n := end - start + 1
		c.Status(status)
		c.Response().SetBodyStream(&fileSection{r: io.LimitReader(f, n), f: f}, int(n))
		return nil
	}
}

// fileSection is part of an open file, closed once sent.
type fileSection struct {
	r io.Reader
	f *os.File
}

func (s *fileSection) Read(p []byte) (int, error) { return s.r.Read(p) }
func (s *fileSection) Close() error               { return s.f.Close() }

// parseRange reads a Range header of one byte range over a file of size
// bytes: ok when it is one (a header of another unit or of several ranges
// is not, and the whole file is sent), satisfiable when it holds a byte of
// the file; the range is inclusive.
func parseRange(h string, size int64) (start, end int64, ok, satisfiable bool) {
	spec, found := strings.CutPrefix(strings.TrimSpace(h), "bytes=")
	if !found || strings.Contains(spec, ",") {
		return 0, 0, false, false
	}
	a, b, found := strings.Cut(strings.TrimSpace(spec), "-")
	if !found {
		return 0, 0, false, false
	}
	if a == "" { // the last b bytes
		n, err := strconv.ParseInt(b, 10, 64)
		if err != nil || n < 0 {
			return 0, 0, false, false
		}
		if n == 0 || size == 0 {
			return 0, 0, true, false
		}
		return max(size-n, 0), size - 1, true, true
	}
	s, err := strconv.ParseInt(a, 10, 64)
	if err != nil || s < 0 {
		return 0, 0, false, false
	}
	e := size - 1
	if b != "" {
		if e, err = strconv.ParseInt(b, 10, 64); err != nil || e < s {
			return 0, 0, false, false
		}
		e = min(e, size-1)
	}
	if s >= size {
		return 0, 0, true, false
	}
	return s, e, true, true
}
