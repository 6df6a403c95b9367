package sar

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"html"
	"io"
	"regexp"
	"strings"

	"overwatch/maritime/sar"
)

// kmlField matches a metadata item of an ASF KML description:
// <li>Path: 54</li>.
var kmlField = regexp.MustCompile(`<li>\s*([A-Za-z/ ]+?)\s*:\s*([^<]*)</li>`)

// kmlMeta matches the metadata-file Placemarks of an ASF KML.
var kmlMeta = regexp.MustCompile(`(?i)Processing type:\s*XML Metadata`)

// ParseKML reads the ASF search API's output=kml answer and its Datapool
// KML downloads: each Placemark's name is the granule, its description
// (an escaped "<![CDATA[" never closed, then raw HTML) lists Path, Orbit,
// Start time, End time and Ascending/Descending in <li> items, and its
// Polygon holds lon,lat,altitude triples. The metadata-file Placemarks
// (Processing type: XML Metadata) repeat a product and are skipped.
func ParseKML(r io.Reader) (Result, error) {
	body, err := readAll(r)
	if err != nil {
		return Result{}, err
	}
	dec := xml.NewDecoder(bytes.NewReader(body))
	dec.Strict = false
	var res Result
	seen := map[string]bool{}
	n := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Result{}, fmt.Errorf("KML: %w", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "Placemark" {
			continue
		}
		n++
		var pm struct {
			Name        string `xml:"name"`
			Description struct {
				Inner string `xml:",innerxml"`
			} `xml:"description"`
			Coordinates string `xml:"Polygon>outerBoundaryIs>LinearRing>coordinates"`
		}
		if err := dec.DecodeElement(&pm, &se); err != nil {
			return Result{}, fmt.Errorf("KML Placemark %d: %w", n, err)
		}
		desc := html.UnescapeString(pm.Description.Inner)
		if kmlMeta.MatchString(desc) {
			continue
		}
		fields := map[string]string{}
		for _, m := range kmlField.FindAllStringSubmatch(desc, -1) {
			if v := strings.TrimSpace(m[2]); v != "NA" {
				fields[strings.ToLower(m[1])] = v
			}
		}
		p := sar.Product{Name: strings.TrimSpace(pm.Name), Direction: fields["ascending/descending"], Source: "asf",
			AbsoluteOrbit: int(number(fields["orbit"])), RelativeOrbit: int(number(fields["path"])), Type: fields["processing type"]}
		if s := fields["start time"]; s != "" {
			if p.Start, err = parseTime(s); err != nil {
				return Result{}, fmt.Errorf("KML Placemark %d (%s): start time %w", n, truncate(p.Name, 80), err)
			}
		}
		if s := fields["end time"]; s != "" {
			if p.Stop, err = parseTime(s); err != nil {
				return Result{}, fmt.Errorf("KML Placemark %d (%s): end time %w", n, truncate(p.Name, 80), err)
			}
		}
		for _, triple := range strings.Fields(pm.Coordinates) {
			f := strings.Split(triple, ",")
			if len(f) < 2 || len(p.Footprint) >= maxVertices {
				p.Footprint = nil
				break
			}
			p.Footprint = append(p.Footprint, sar.LonLat{Lon: number(f[0]), Lat: number(f[1])})
		}
		if i := strings.LastIndex(p.Type, "("); i >= 0 && strings.HasSuffix(p.Type, ")") {
			p.Type = p.Type[i+1 : len(p.Type)-1]
		}
		key := p.Name + "\x00" + p.Type
		if seen[key] {
			continue
		}
		seen[key] = true
		finish(&res, p)
	}
	if n == 0 {
		return Result{}, errors.New("KML: no Placemark")
	}
	return res, nil
}
