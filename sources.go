package overwatch

// Source is the AIS provider a position came from. The empty Source marks
// rows ingested before source attribution; it is served as null.
type Source string

// The AIS providers the service takes positions from.
const (
	SourceNone      Source = ""
	SourceAISHub    Source = "aishub"
	SourceAISStream Source = "aisstream"
	SourceSatellite Source = "satellite"
	SourceSpire     Source = "spire"
)

// SourceAny is the provider path value that selects the freshest position
// across all sources. It names no source: no row is stored under it, and
// ParseSource does not accept it.
const SourceAny Source = "any"

// Sources lists the named AIS providers, in the order the public surface
// lists them.
var Sources = []Source{SourceAISHub, SourceAISStream, SourceSatellite, SourceSpire}

// Providers lists the values accepted as a provider on the public surface:
// the named sources, then SourceAny.
func Providers() []Source {
	return append(append(make([]Source, 0, len(Sources)+1), Sources...), SourceAny)
}

// ParseProvider returns the provider path value s as a source: a named
// source, or SourceAny for "any"; ok is false for any other value.
func ParseProvider(s string) (src Source, ok bool) {
	if s == string(SourceAny) {
		return SourceAny, true
	}
	return ParseSource(s)
}

// ParseSource returns the named source for s; "any" and unknown names are not
// sources.
func ParseSource(s string) (Source, bool) {
	for _, src := range Sources {
		if string(src) == s {
			return src, true
		}
	}
	return SourceNone, false
}
