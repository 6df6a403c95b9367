package read

// FleetAgeCSVRow is a row of GET /v1/fleet-age?format=csv: one age bucket
// of one port, beside the port's totals (the JSON items flattened).
type FleetAgeCSVRow struct {
	Port                string   `csv:"port"`
	PortName            string   `csv:"port_name"`
	VesselType          string   `csv:"vessel_type"`
	PeriodStart         string   `csv:"period_start"`
	PeriodEnd           string   `csv:"period_end"`
	Bucket              string   `csv:"bucket"`
	BucketVessels       int      `csv:"bucket_vessels"`
	BucketPercentage    *float64 `csv:"bucket_percentage"`
	PortVessels         int      `csv:"port_vessels"`
	MeanAgeYears        *float64 `csv:"mean_age_years"`
	Over20Pct           *float64 `csv:"over_20_pct"`
	Over25Pct           *float64 `csv:"over_25_pct"`
	EstimatedBuildYears int      `csv:"estimated_build_years"`
}

// fleetAgeCSVRows flattens the items: a row per port and age bucket.
func fleetAgeCSVRows(items []PortFleetAge) []FleetAgeCSVRow {
	var out []FleetAgeCSVRow
	for _, it := range items {
		for _, b := range it.AgeProfile.Buckets {
			out = append(out, FleetAgeCSVRow{
				Port: it.Port, PortName: it.PortName, VesselType: it.VesselType,
				PeriodStart: it.PeriodStart, PeriodEnd: it.PeriodEnd,
				Bucket: b.Bucket, BucketVessels: b.Vessels, BucketPercentage: b.Percentage,
				PortVessels: it.AgeProfile.Vessels, MeanAgeYears: it.AgeProfile.MeanAgeYears,
				Over20Pct: it.AgeProfile.Risk.Over20Pct, Over25Pct: it.AgeProfile.Risk.Over25Pct,
				EstimatedBuildYears: it.EstimatedBuildYears,
			})
		}
	}
	return out
}
