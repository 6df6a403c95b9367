package bulk

import "slices"

// Dataset names what an export holds.
type Dataset string

// The datasets of the bulk feed.
const (
	Positions  Dataset = "positions"   // the stored AIS positions
	PortCalls  Dataset = "port_calls"  // the published port calls (confidence 2 or more)
	RiskEvents Dataset = "risk_events" // the detected risk events
	Voyages    Dataset = "voyages"     // the completed laden voyages (a loading call and the next discharging call)
	Emissions  Dataset = "emissions"   // the voyage legs' emission estimates
)

// Datasets are the datasets in the order the documentation lists them.
var Datasets = []Dataset{Positions, PortCalls, RiskEvents, Voyages, Emissions}

// Kind is how a column's values are held and written.
type Kind uint8

// The kinds of column. A Float is null when NaN, a Time (Unix seconds) when
// 0, an ID when 0; Text is typed by crews (names, destinations) and is
// written formula-safe in CSV.
const (
	String Kind = iota
	Text
	Int
	ID
	Float
	Time
)

// Column is one column of a dataset: its name in every format and its kind.
type Column struct {
	Name string
	Kind Kind
}

// Filters of the position filter grammar and the datasets they apply to
// (a filter naming a column the dataset does not have is refused).
var filterApplies = map[string][]Dataset{
	"imo":     Datasets,
	"type":    Datasets,
	"start":   Datasets,
	"end":     Datasets,
	"mmsi":    {Positions},
	"source":  {Positions},
	"bbox":    {Positions, PortCalls, RiskEvents},
	"polygon": {Positions, PortCalls, RiskEvents},
}

// FilterNames are the filter keys of an export, in the grammar's order.
var FilterNames = []string{"imo", "mmsi", "type", "bbox", "polygon", "start", "end", "source"}

// Has reports whether the dataset has the column a filter key reads.
func (d Dataset) Has(filter string) bool { return slices.Contains(filterApplies[filter], d) }

// Located reports whether the dataset's rows have a position (GeoJSON is
// offered for those only): positions and risk events their own, port calls
// their port's.
func (d Dataset) Located() bool { return d == Positions || d == PortCalls || d == RiskEvents }

// TimeColumn names the column start and end bound in the dataset.
func (d Dataset) TimeColumn() string {
	switch d {
	case Positions:
		return "timestamp"
	case PortCalls:
		return "arrival"
	case RiskEvents:
		return "started_at"
	}
	return "departure"
}

// Columns are the dataset's columns, in the order of every format (the
// store's rows hold them in this order).
func (d Dataset) Columns() []Column {
	return columns[d]
}

var columns = map[Dataset][]Column{
	Positions: {
		{"imo", ID}, {"mmsi", Int}, {"timestamp", Time}, {"latitude", Float}, {"longitude", Float},
		{"speed_kt", Float}, {"course_deg", Float}, {"heading", Float}, {"nav_status", Int}, {"source", String},
		{"received_at", Time},
	},
	PortCalls: {
		{"imo", Int}, {"name", Text}, {"flag", String}, {"vessel_type", String}, {"port", String},
		{"latitude", Float}, {"longitude", Float}, {"arrival", Time}, {"departure", Time},
		{"anchorage", String}, {"anchor_start", Time}, {"anchor_end", Time}, {"wait_hours", Float},
		{"berth_zone", String}, {"berth_start", Time}, {"berth_end", Time}, {"berth_hours", Float},
		{"port_hours", Float}, {"confidence", Int}, {"draft_before", Float}, {"draft_after", Float},
		{"operation", String}, {"cargo_tonnes", Float}, {"cargo_quality", String}, {"declared_destination", Text},
	},
	RiskEvents: {
		{"type", String}, {"subtype", String}, {"imo", Int}, {"name", Text}, {"flag", String},
		{"vessel_type", String}, {"other_imo", ID}, {"started_at", Time}, {"ended_at", Time}, {"ongoing", Int},
		{"latitude", Float}, {"longitude", Float}, {"end_latitude", Float}, {"end_longitude", Float},
		{"port", String}, {"severity", String}, {"detail", Text},
	},
	Voyages: {
		{"imo", Int}, {"name", Text}, {"origin", String}, {"destination", String}, {"commodity", String},
		{"load_arrival", Time}, {"departure", Time}, {"arrival", Time}, {"discharge_departure", Time},
		{"dwt", Float}, {"distance_nm", Float}, {"cargo_tonnes", Float}, {"voyage_days", Float},
		{"port_days", Float}, {"sea_days", Float},
	},
	Emissions: {
		{"voyage_id", String}, {"imo", Int}, {"from_port", String}, {"to_port", String}, {"departure", Time},
		{"arrival", Time}, {"vessel_class", String}, {"commodity", String}, {"method", String},
		{"ttw_t_co2e", Float}, {"wtw_t_co2e", Float}, {"model_version", String},
	},
}

// coordinates returns the indexes of the latitude and longitude columns
// (-1 when the dataset has none).
func (d Dataset) coordinates() (lat, lon int) {
	lat, lon = -1, -1
	for i, c := range d.Columns() {
		switch c.Name {
		case "latitude":
			lat = i
		case "longitude":
			lon = i
		}
	}
	return lat, lon
}

// Format is the file format of an export.
type Format string

// The formats of an export.
const (
	CSV     Format = "csv"
	CSVGzip Format = "csv.gz"
	Parquet Format = "parquet"
	GeoJSON Format = "geojson"
)

// Formats are the formats in the order the documentation lists them.
var Formats = []Format{CSV, CSVGzip, Parquet, GeoJSON}

// ContentType is the media type a download of the format is sent as.
func (f Format) ContentType() string {
	switch f {
	case CSVGzip:
		return "application/gzip"
	case Parquet:
		return "application/vnd.apache.parquet"
	case GeoJSON:
		return "application/geo+json"
	}
	return "text/csv; charset=utf-8"
}
