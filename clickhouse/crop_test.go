package clickhouse_test

import (
	"context"
	"math"
	"testing"
	"time"

	"overwatch/clickhouse/chtest"
	"overwatch/maritime/crop"
	"overwatch/read"
	"overwatch/testclock"
)

// The crop store's query shapes on the local server: the inserts, FINAL
// reads (a re-import replaces, not duplicates), the NDVI composites
// (usable pixels only) and the observed port tonnage from the current
// generation of estimates_weekly.
func TestCropStore(t *testing.T) {
	db, fx := chtest.DB(t, "crop"), chtest.Open(t, chtest.URL(t, "crop"))
	ctx := context.Background()
	rev := time.Date(2025, 11, 1, 0, 0, 0, 0, time.UTC)
	psd := []crop.PSDRow{{CommodityCode: "0410000", Commodity: "Wheat", CountryCode: "UP", Country: "Ukraine", MarketYear: 2025, Revised: rev,
		AttributeID: "028", Attribute: "Production", UnitID: "08", Unit: "(1000 MT)", Value: 23000},
		{CommodityCode: "0410000", Commodity: "Wheat", CountryCode: "ZZ", Country: "Elsewhere", MarketYear: 2025, Revised: rev,
			AttributeID: "028", Attribute: "Production", UnitID: "08", Unit: "(1000 MT)", Value: 1}}
	for range 2 {
		if err := db.InsertPSD(ctx, psd); err != nil {
			t.Fatal(err)
		}
	}
	wasde := []crop.WASDERow{{WasdeNumber: 665, Released: time.Date(2025, 11, 14, 0, 0, 0, 0, time.UTC), Table: "World Soybean Supply and Use",
		Attribute: "Production", Commodity: "Oilseed, Soybean", Region: "Brazil", MarketYear: "2025/26", Flag: "Proj.", Period: "Annual",
		Value: 175, Unit: "Million Metric Tons"},
		{WasdeNumber: 665, Table: "U.S. Sugar Supply and Use", Attribute: "Production", Commodity: "Sugar", Region: "United States", Value: 9}}
	if err := db.InsertWASDE(ctx, wasde); err != nil {
		t.Fatal(err)
	}
	day := time.Date(2020, 8, 12, 0, 0, 0, 0, time.UTC)
	ndvi := []crop.NDVISample{
		{Region: "ukraine-steppe", Category: "c", Pixel: "1", Date: day, NDVI: 0.6, MODLAND: "0b00", Product: "MOD13Q1_061"},
		{Region: "ukraine-steppe", Category: "c", Pixel: "2", Date: day, NDVI: 0.8, MODLAND: "0b01", Product: "MOD13Q1_061"},
		{Region: "ukraine-steppe", Category: "c", Pixel: "3", Date: day, NDVI: 0.1, MODLAND: "0b10", Product: "MOD13Q1_061"},
	}
	if err := db.InsertNDVI(ctx, ndvi); err != nil {
		t.Fatal(err)
	}
	today := testclock.Today()
	cols := []string{"day", "gen", "port", "iso_year", "iso_week", "vessels", "calls", "calls_with_draught", "tonnage", "confidence"}
	fx.Insert(t, "estimates_weekly", cols,
		[]any{today, uint64(1), "odesa", uint16(2026), uint8(1), uint32(1), uint32(1), uint32(1), 999.0, 1.0},
		[]any{today, uint64(2), "odesa", uint16(2026), uint8(1), uint32(1), uint32(1), uint32(1), 300.0, 1.0},
		[]any{today, uint64(2), "chornomorsk", uint16(2026), uint8(1), uint32(1), uint32(1), uint32(1), 100.0, 1.0},
		[]any{today, uint64(2), "rotterdam", uint16(2026), uint8(1), uint32(1), uint32(1), uint32(1), 5000.0, 1.0})
	fx.RecordGeneration(t, "estimates_weekly", today, 2)

	in, err := db.CropInputs(ctx, read.CropInputsRequest{ExportDays: 365, Today: testclock.Today()})
	if err != nil {
		t.Fatal(err)
	}
	if len(in.PSD) != 1 || in.PSD[0].CommodityCode != "0410000" || in.PSD[0].Value != 23000 || !in.PSD[0].Revised.Equal(rev) {
		t.Errorf("PSD %+v (one row: re-imported once, other countries left out)", in.PSD)
	}
	if len(in.WASDE) != 1 || in.WASDE[0].Value != 175 || in.WASDE[0].WasdeNumber != 665 {
		t.Errorf("WASDE %+v", in.WASDE)
	}
	if len(in.NDVI) != 1 || in.NDVI[0].Pixels != 2 || math.Abs(in.NDVI[0].NDVI-0.7) > 1e-9 || !in.NDVI[0].Date.Equal(day) {
		t.Errorf("NDVI composites %+v", in.NDVI)
	}
	if len(in.PortTonnes) != 2 || in.PortTonnes["odesa"] != 300 || in.PortTonnes["chornomorsk"] != 100 {
		t.Errorf("port tonnage %v", in.PortTonnes)
	}
	psdN, wasdeN, err := db.CropRows(ctx)
	if err != nil || psdN == 0 || wasdeN != 2 {
		t.Errorf("rows %d %d %v", psdN, wasdeN, err)
	}
}
