package market

import (
	"archive/zip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/thedatashed/xlsxreader"
)

// maxXlsxPart caps the uncompressed size of one part of a workbook
// (archive/zip refuses a part longer than its declared size).
const maxXlsxPart = 512 << 20

// openWorkbook spools r (at most MaxBytes) to a temporary file, checks
// the workbook against what would exhaust memory or crash the xlsx reader
// (oversized parts, a shared-strings count beyond reason, a negative
// shared-string index in the sheet), and opens it. It returns the exact
// name of the sheet matching want (case and spaces ignored) and a
// function that closes the workbook and removes the temporary file.
func openWorkbook(r io.Reader, want string) (*xlsxreader.XlsxFileCloser, string, func(), error) {
	tmp, err := os.CreateTemp("", "overwatch-xlsx-*.xlsx")
	if err != nil {
		return nil, "", nil, fmt.Errorf("workbook: %w", err)
	}
	name := tmp.Name()
	cleanup := func() { os.Remove(name) }
	_, err = io.Copy(tmp, limited(r))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		cleanup()
		return nil, "", nil, fmt.Errorf("workbook: %w", err)
	}
	zr, err := zip.OpenReader(name)
	if err != nil {
		cleanup()
		return nil, "", nil, fmt.Errorf("workbook: not a zip archive: %w", err)
	}
	if err := checkWorkbook(&zr.Reader); err != nil {
		zr.Close()
		cleanup()
		return nil, "", nil, err
	}
	x, err := openReaderZip(zr)
	if err != nil {
		cleanup()
		return nil, "", nil, fmt.Errorf("workbook: %w", err)
	}
	done := func() { x.Close(); cleanup() }
	sheet := ""
	for _, s := range x.Sheets {
		if strings.EqualFold(strings.Join(strings.Fields(s), " "), want) {
			sheet = s
		}
	}
	if sheet == "" {
		done()
		return nil, "", nil, fmt.Errorf("workbook: no sheet %q (sheets: %s)", want, trunc(strings.Join(x.Sheets, ", ")))
	}
	if err := checkSheet(x.GetSheetFileForSheetName(sheet)); err != nil {
		done()
		return nil, "", nil, fmt.Errorf("sheet %q: %w", sheet, err)
	}
	return x, sheet, done, nil
}

// openReaderZip opens the workbook, turning a panic of the reader into an
// error (it closes zr on error).
func openReaderZip(zr *zip.ReadCloser) (x *xlsxreader.XlsxFileCloser, err error) {
	defer func() {
		if p := recover(); p != nil {
			zr.Close()
			x, err = nil, fmt.Errorf("unreadable workbook: %v", p)
		}
	}()
	return xlsxreader.OpenReaderZip(zr)
}

// checkWorkbook refuses parts too large to hold and a shared-strings
// table declaring more strings than its size could hold.
func checkWorkbook(zr *zip.Reader) error {
	for _, f := range zr.File {
		if f.UncompressedSize64 > maxXlsxPart {
			return fmt.Errorf("workbook: part %s is %d MiB uncompressed", trunc(f.Name), f.UncompressedSize64>>20)
		}
		if f.Name != "xl/sharedStrings.xml" && f.Name != "xl/SharedStrings.xml" {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return fmt.Errorf("workbook: shared strings: %w", err)
		}
		dec := xml.NewDecoder(rc)
		for {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			if se, ok := tok.(xml.StartElement); ok {
				for _, a := range se.Attr {
					if a.Name.Local == "count" {
						n, err := strconv.Atoi(a.Value)
						if err == nil && (n < 0 || uint64(n) > f.UncompressedSize64) {
							rc.Close()
							return fmt.Errorf("workbook: shared strings declare %d strings in %d bytes", n, f.UncompressedSize64)
						}
					}
				}
				break
			}
		}
		rc.Close()
	}
	return nil
}

// checkSheet streams the sheet once and refuses malformed XML and a
// negative shared-string index, which the xlsx reader would index with.
func checkSheet(f *zip.File) error {
	if f == nil {
		return errors.New("no sheet part")
	}
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	dec := xml.NewDecoder(rc)
	shared, inV := false, false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("malformed sheet XML at byte %d: %v", dec.InputOffset(), err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "c":
				shared = false
				for _, a := range t.Attr {
					if a.Name.Local == "t" && a.Value == "s" {
						shared = true
					}
				}
			case "v":
				inV = true
			}
		case xml.EndElement:
			if t.Name.Local == "v" {
				inV = false
			}
		case xml.CharData:
			if inV && shared && strings.HasPrefix(strings.TrimSpace(string(t)), "-") {
				return fmt.Errorf("negative shared-string index %q at byte %d", trunc(string(t)), dec.InputOffset())
			}
		}
	}
}
