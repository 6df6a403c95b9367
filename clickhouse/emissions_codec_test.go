package clickhouse

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"overwatch/maritime/emissions"
)

func TestVoyageResultCodec(t *testing.T) {
	dep := time.Date(2026, 3, 1, 6, 0, 0, 0, time.UTC)
	for _, in := range []emissions.VoyageInput{
		{IMO: 9000001, Name: "CAPE Ørsted", ShipType: 70, From: "santos", To: "rotterdam", Departure: dep, Arrival: dep.Add(100 * time.Hour),
			DWT: 60000, TrackDistanceNM: 1200, TrackCoverage: 1, MeanSpeedKnots: 12, CargoTonnes: 50000, CargoQuality: emissions.CargoHigh},
		{IMO: 9000002, ShipType: 84, From: "bonny", To: "zeebrugge", Departure: dep, Arrival: dep.Add(300 * time.Hour),
			LengthM: 280, BeamM: 45, TrackCoverage: 0.2, SeaLaneDistanceNM: 4000, Fuel: emissions.FuelMGO},
		{IMO: 9000003}, // no estimate at all
	} {
		v := emissions.ComputeVoyage(in)
		v.Factors = nil
		in := interner{}
		got, err := decodeVoyageResult(encodeVoyageResult(v), in)
		if err != nil || !reflect.DeepEqual(got, v) {
			t.Errorf("round trip of %s: %v\n got %+v\nwant %+v", v.IMO, err, got, v)
		}
		// The first version's JSON rows still read.
		js, _ := json.Marshal(v)
		if got, err := decodeVoyageResult(js, in); err != nil || !reflect.DeepEqual(got, v) {
			t.Errorf("JSON row of %s: %v", v.IMO, err)
		}
	}
	enc := encodeVoyageResult(emissions.ComputeVoyage(emissions.VoyageInput{IMO: 9000004, DWT: 1000, DistanceNM: 10}))
	for _, bad := range [][]byte{nil, {2}, enc[:20], enc[:len(enc)-1]} {
		if _, err := decodeVoyageResult(bad, interner{}); err == nil {
			t.Errorf("%d bytes decoded without error", len(bad))
		}
	}
}
