package read

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestBodyStream: both ways of reading a streamed body give the bytes
// written, or the writer's error, and release what it read once.
func TestBodyStream(t *testing.T) {
	boom := errors.New("store failed")
	for _, fail := range []bool{false, true} {
		for _, viaRead := range []bool{false, true} {
			released := 0
			b := &bodyStream{release: func() { released++ }, write: func(w *bufio.Writer) error {
				w.WriteString(strings.Repeat("x", 3*trackFlushBytes)) //nolint:errcheck // checked by the reader
				if fail {
					return boom
				}
				return nil
			}}
			var got []byte
			var err error
			if viaRead {
				got, err = io.ReadAll(b)
			} else {
				var out bytes.Buffer
				_, err = b.WriteTo(&out)
				got = out.Bytes()
			}
			b.Close() //nolint:errcheck
			if fail && !errors.Is(err, boom) || !fail && (err != nil || len(got) != 3*trackFlushBytes) || released != 1 {
				t.Errorf("fail %v, Read %v: %d bytes, %v; released %d times", fail, viaRead, len(got), err, released)
			}
		}
	}
}
