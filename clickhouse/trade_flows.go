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

// VesselPortVisits implements read.TradeEntityStore: the vessel's latest
// port calls (current generation of port_calls), newest first.
func (db *DB) VesselPortVisits(ctx context.Context, imo overwatch.IMO, limit int) ([]read.PortVisit, error) {
	var out []read.PortVisit
	err := db.scanAll(ctx, "vessel port visits", `SELECT port, arrival, departure FROM port_calls
		WHERE `+current("port_calls")+` AND imo = ? ORDER BY arrival DESC, port LIMIT ?`, []any{uint32(imo), limit},
		func(rows interface{ Scan(...any) error }) error {
			var v read.PortVisit
			var arr time.Time
			var dep *time.Time
			if err := rows.Scan(&v.Port, &arr, &dep); err != nil {
				return err
			}
			v.Arrival = arr.UTC().Format(time.RFC3339)
			if dep != nil {
				v.Departure = dep.UTC().Format(time.RFC3339)
			}
			out = append(out, v)
			return nil
		})
	return out, err
}

// DarkEventCount implements read.TradeEntityStore: the vessel's AIS gaps
// (risk events of type ais_gap, current generation) — its dark activity.
func (db *DB) DarkEventCount(ctx context.Context, imo overwatch.IMO) (int, error) {
	var n uint64
	err := db.conn.QueryRow(ctx, `SELECT count() FROM risk_events WHERE `+current("risk_events")+` AND imo = ? AND type = ?`,
		uint32(imo), risk.EventGap).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("clickhouse: dark event count: %w", err)
	}
	return int(n), nil
}
