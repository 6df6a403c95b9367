package clickhouse

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"overwatch/jobs"
	"overwatch/maritime/emissions"
	"overwatch/maritime/voyage"
)

var _ jobs.EmissionsStore = (*DB)(nil)

// voyageEmissionColumns are the columns of voyage_emissions after day and gen.
const voyageEmissionColumns = `id, imo, from_port, to_port, departure, arrival, vessel_class, commodity, method, ttw, wtw,
	input, result, factors, model_version`

// WriteVoyageEmissions writes the voyages that ended on the days as
// generation gen, each under the UTC day of its arrival (voyages of other
// days are not written: they belong to windows this run does not
// replace), then records the generation for every day, so that a day's
// voyages are replaced whole.
func (db *DB) WriteVoyageEmissions(ctx context.Context, gen uint64, days []time.Time, rows []voyage.Record) error {
	inWindow := map[time.Time]bool{}
	for _, d := range days {
		inWindow[d.UTC().Truncate(24*time.Hour)] = true
	}
	counts := map[time.Time]uint64{}
	err := db.derivedBatch(ctx, "voyage_emissions", "day, gen, "+voyageEmissionColumns, func(add func(...any) error) error {
		for i := range rows {
			r := &rows[i]
			d := r.Input.Arrival.UTC().Truncate(24 * time.Hour)
			if !inWindow[d] {
				continue
			}
			input, err := json.Marshal(r.Input)
			if err != nil {
				return fmt.Errorf("voyage %s input: %w", r.ID, err)
			}
			factors := r.Result.Factors
			if factors == nil {
				factors = []string{}
			}
			counts[d]++
			if err := add(d, gen, r.ID, r.Input.IMO, r.Input.From, r.Input.To, r.Input.Departure.UTC(), r.Input.Arrival.UTC(),
				string(r.Result.Class), r.Result.Commodity, string(r.Result.Method), r.Result.TTW.Central, r.Result.WTW.Central,
				string(input), string(encodeVoyageResult(r.Result)), factors, emissions.ModelVersion); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	window := make([]time.Time, 0, len(inWindow))
	for d := range inWindow {
		window = append(window, d)
	}
	return db.recordDerivation(ctx, "voyage_emissions", gen, window, counts)
}
