package portwatch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// MaxBytes caps an answer (1,000 rows are some 500 kB).
const MaxBytes = 16 << 20

// Day is a chokepoint's transits on a UTC day, by PortWatch's vessel types.
type Day struct {
	PortID       string
	PortName     string
	Date         time.Time
	Container    int
	DryBulk      int
	GeneralCargo int
	RoRo         int
	Tanker       int
	Total        int
}

// Parse reads a query answer (f=json): its features' attributes. The
// date is epoch milliseconds (a value in the evening is the next day's:
// some rows are stamped at a local midnight west of UTC) or a
// "YYYY-MM-DD" string. An {"error": ...} answer (sent with HTTP 200) is an
// error; rows without a port id or a date are skipped and counted.
func Parse(body []byte) (days []Day, skipped int, err error) {
	if len(body) > MaxBytes {
		return nil, 0, fmt.Errorf("portwatch: answer over %d bytes", MaxBytes)
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '{' {
		return nil, 0, errors.New("portwatch: not a JSON object")
	}
	var doc struct {
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
		Features *[]struct {
			Attributes map[string]any `json:"attributes"`
		} `json:"features"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, 0, fmt.Errorf("portwatch: %w", err)
	}
	if doc.Error != nil {
		return nil, 0, fmt.Errorf("portwatch: service error %d: %s", doc.Error.Code, doc.Error.Message)
	}
	if doc.Features == nil {
		return nil, 0, errors.New("portwatch: no features in the answer")
	}
	for _, f := range *doc.Features {
		a := f.Attributes
		id, _ := a["portid"].(string)
		date, ok := dateOf(a["date"])
		if strings.TrimSpace(id) == "" || !ok {
			skipped++
			continue
		}
		name, _ := a["portname"].(string)
		d := Day{PortID: strings.TrimSpace(id), PortName: strings.TrimSpace(name), Date: date,
			Container: count(a["n_container"]), DryBulk: count(a["n_dry_bulk"]), GeneralCargo: count(a["n_general_cargo"]),
			RoRo: count(a["n_roro"]), Tanker: count(a["n_tanker"]), Total: count(a["n_total"])}
		if d.Total == 0 {
			d.Total = d.Container + d.DryBulk + d.GeneralCargo + d.RoRo + d.Tanker
		}
		days = append(days, d)
	}
	return days, skipped, nil
}

// dateOf reads a date attribute: epoch milliseconds or YYYY-MM-DD.
func dateOf(v any) (time.Time, bool) {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || x < 0 || x > 4102444800000 {
			return time.Time{}, false
		}
		t := time.UnixMilli(int64(x)).UTC()
		if t.Hour() >= 12 {
			t = t.Add(24 * time.Hour)
		}
		return t.Truncate(24 * time.Hour), true
	case string:
		t, err := time.Parse(time.DateOnly, strings.TrimSpace(x[:min(len(x), 10)]))
		return t, err == nil && t.Year() >= 1970
	}
	return time.Time{}, false
}

// count reads a count attribute (null or absent: 0; never negative).
func count(v any) int {
	x, ok := v.(float64)
	if !ok || math.IsNaN(x) || x < 0 || x > 1e6 {
		return 0
	}
	return int(math.Round(x))
}

// Slug is the chokepoint a PortWatch row stands for among the watched
// eight ("" for the others): by id for those NOTES.md names, by name for
// the rest.
func Slug(portID, portName string) string {
	switch portID {
	case "chokepoint1":
		return "suez"
	case "chokepoint4":
		return "bab-el-mandeb"
	case "chokepoint6":
		return "hormuz"
	case "chokepoint7":
		return "cape-of-good-hope"
	}
	n := strings.ToLower(portName)
	for _, k := range [][2]string{{"panama", "panama"}, {"malacca", "malacca"}, {"bospor", "bosporus"}, {"bosphor", "bosporus"}, {"gibraltar", "gibraltar"}} {
		if strings.Contains(n, k[0]) {
			return k[1]
		}
	}
	return ""
}
