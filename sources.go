package overwatch

// Source is the AIS provider a position came from. The empty Source marks
// rows ingested before source attribution; it is served as null.
type Source string

// The AIS providers of the spec.
const (
	SourceNone      Source = ""
	SourceAISHub    Source = "aishub"
	SourceAISStream Source = "aisstream"
	SourceSatellite Source = "satellite"
	SourceSpire     Source = "spire"
)

// ProviderAny is the provider path value that selects the freshest position
// across all sources.
const ProviderAny = "any"

// Sources lists the named providers in the order the spec gives them.
var Sources = []Source{SourceAISHub, SourceAISStream, SourceSatellite, SourceSpire}

// Providers lists the values accepted as a provider on the public surface.
var Providers = []string{"aishub", "aisstream", "satellite", "spire", ProviderAny}

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
