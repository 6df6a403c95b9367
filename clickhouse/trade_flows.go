package clickhouse

import (
	"context"
	"fmt"
	"time"

	"overwatch"
	"overwatch/maritime/risk"
	"overwatch/maritime/tradestats"
	"overwatch/read"
)

var _ read.TradeStore = (*DB)(nil)

const tradeFlowColumns = `reporter_code, reporter_iso3, reporter_name, partner_code, partner_iso3, partner_name, flow, hs_code, period,
	year, month, net_weight_kg, quantity, quantity_unit, value_usd, value_basis, classification, source`

// InsertTradeFlows writes the flows of a file as one batch; the newest
// import of a row wins. Rows whose codes do not fit the table are left
// out.
func (db *DB) InsertTradeFlows(ctx context.Context, flows []tradestats.Flow) error {
	now := time.Now().UTC()
	err := db.derivedBatch(ctx, "trade_flows", tradeFlowColumns+", fetched_at", func(add func(...any) error) error {
		for _, f := range flows {
			if f.ReporterCode < 0 || f.ReporterCode > 65535 || f.PartnerCode < 0 || f.PartnerCode > 65535 || f.Year < 0 || f.Year > 65535 ||
				f.Month < 0 || f.Month > 12 {
				continue
			}
			if err := add(uint16(f.ReporterCode), f.ReporterISO3, f.ReporterName, uint16(f.PartnerCode), f.PartnerISO3, f.PartnerName, f.Flow,
				f.HSCode, f.Period, uint16(f.Year), uint8(f.Month), f.NetWeightKg, f.Quantity, f.QuantityUnit, f.ValueUSD, f.ValueBasis,
				f.Classification, f.Source, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("clickhouse: insert trade flows: %w", err)
	}
	return nil
}

// TradeFlowRows counts the rows of trade_flows (the samples are loaded
// into an empty table).
func (db *DB) TradeFlowRows(ctx context.Context) (uint64, error) {
	var n uint64
	if err := db.conn.QueryRow(ctx, `SELECT count() FROM trade_flows`).Scan(&n); err != nil {
		return 0, fmt.Errorf("clickhouse: trade flow rows: %w", err)
	}
	return n, nil
}

// TradeFlows implements read.TradeFlowStore: the rows matching the
// filters (the exporter is the reporter of an export or re-export and the
// partner of an import or re-import), newest period first.
func (db *DB) TradeFlows(ctx context.Context, r read.TradeFlowsRequest) ([]tradestats.Flow, error) {
	q := &query{}
	q.add("1")
	const exportSide, importSide = "flow IN ('export', 're-export')", "flow IN ('import', 're-import')"
	if r.Exporter != nil {
		q.add("(("+exportSide+" AND reporter_code = ?) OR ("+importSide+" AND partner_code = ?))", *r.Exporter, *r.Exporter)
	}
	if r.Importer != nil {
		q.add("(("+exportSide+" AND partner_code = ?) OR ("+importSide+" AND reporter_code = ?))", *r.Importer, *r.Importer)
	}
	if r.HSCode != "" {
		q.add("hs_code = ?", r.HSCode)
	}
	if r.Year != 0 {
		q.add("year = ?", r.Year)
	}
	sql := `SELECT ` + tradeFlowColumns + ` FROM trade_flows FINAL WHERE ` + q.String() +
		` ORDER BY period DESC, reporter_name, partner_name, flow, hs_code`
	args := q.args
	if r.Limit > 0 {
		sql += ` LIMIT ?`
		args = append(args, r.Limit)
	}
	var out []tradestats.Flow
	err := db.scanAll(ctx, "trade flows", sql, args, func(rows interface{ Scan(...any) error }) error {
		var f tradestats.Flow
		var rc, pc, y uint16
		var m uint8
		if err := rows.Scan(&rc, &f.ReporterISO3, &f.ReporterName, &pc, &f.PartnerISO3, &f.PartnerName, &f.Flow, &f.HSCode, &f.Period,
			&y, &m, &f.NetWeightKg, &f.Quantity, &f.QuantityUnit, &f.ValueUSD, &f.ValueBasis, &f.Classification, &f.Source); err != nil {
			return err
		}
		f.ReporterCode, f.PartnerCode, f.Year, f.Month = int(rc), int(pc), int(y), int(m)
		out = append(out, f)
		return nil
	})
	return out, err
}

// VesselPortVisits implements read.TradeEntityStore: the latest port calls
// of each vessel (current generation of port_calls), at most perVessel
// each, newest first.
func (db *DB) VesselPortVisits(ctx context.Context, imos []overwatch.IMO, perVessel int) (map[overwatch.IMO][]read.PortVisit, error) {
	out := map[overwatch.IMO][]read.PortVisit{}
	if len(imos) == 0 {
		return out, nil
	}
	err := db.scanAll(ctx, "vessel port visits", `SELECT imo, port, arrival, departure FROM port_calls
		WHERE `+current("port_calls")+` AND imo IN (`+uintList(imos)+`)
		ORDER BY imo, arrival DESC, port LIMIT ? BY imo`, []any{perVessel},
		func(rows interface{ Scan(...any) error }) error {
			var imo uint32
			var v read.PortVisit
			var arr time.Time
			var dep *time.Time
			if err := rows.Scan(&imo, &v.Port, &arr, &dep); err != nil {
				return err
			}
			v.Arrival = arr.UTC().Format(time.RFC3339)
			if dep != nil {
				v.Departure = dep.UTC().Format(time.RFC3339)
			}
			out[overwatch.IMO(imo)] = append(out[overwatch.IMO(imo)], v)
			return nil
		})
	return out, err
}

// DarkEventCounts implements read.TradeEntityStore: each vessel's AIS gaps
// (risk events of type ais_gap, current generation), its dark activity;
// a vessel without any is left out.
func (db *DB) DarkEventCounts(ctx context.Context, imos []overwatch.IMO) (map[overwatch.IMO]int, error) {
	out := map[overwatch.IMO]int{}
	if len(imos) == 0 {
		return out, nil
	}
	err := db.scanAll(ctx, "dark event counts", `SELECT imo, count() FROM risk_events
		WHERE `+current("risk_events")+` AND imo IN (`+uintList(imos)+`) AND type = ? GROUP BY imo`, []any{risk.EventGap},
		func(rows interface{ Scan(...any) error }) error {
			var imo uint32
			var n uint64
			if err := rows.Scan(&imo, &n); err != nil {
				return err
			}
			out[overwatch.IMO(imo)] = int(n)
			return nil
		})
	return out, err
}
