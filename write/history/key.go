package history

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

// keyBlock is how much of each end of a file FileKey hashes.
const keyBlock = 1 << 20

// FileKey identifies a file by its content without reading it whole: its
// size and the SHA-256 of its first and last MiB. A copy or a renamed file
// keeps its key; a file that changed at either end, grew or was cut gets
// a new one.
func FileKey(path string) (key string, size int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", 0, err
	}
	if !fi.Mode().IsRegular() {
		return "", 0, fmt.Errorf("%s: not a regular file", path)
	}
	size = fi.Size()
	h := sha256.New()
	fmt.Fprintf(h, "%d\n", size)
	if _, err := io.Copy(h, io.LimitReader(f, keyBlock)); err != nil {
		return "", 0, fmt.Errorf("%s: %w", path, err)
	}
	if size > keyBlock {
		if _, err := io.Copy(h, io.NewSectionReader(f, max(size-keyBlock, keyBlock), keyBlock)); err != nil {
			return "", 0, fmt.Errorf("%s: %w", path, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:16]), size, nil
}
