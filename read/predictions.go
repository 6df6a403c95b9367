package read

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"overwatch/maritime/predict"
	"overwatch/maritime/seaport"
	"overwatch/maritime/vessel"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/route"
)

// Next-port and ETA predictions: the predictions job stores every vessel
// under way as of the newest position; these endpoints read the newest
// refresh, or, given as_of, predict on read from the data before that
// instant only (docs/predictions.md).

// PredictionFilter selects stored predictions of one refresh: the newest,
// or the newest before Before when it is set (the ETA alert's previous
// refresh). IMO 0, Category "", Port "" and BBox nil select every vessel;
// Port is the predicted first port; BBox is min_lon, min_lat, max_lon,
// max_lat of the vessel's last position. Limit 0 is no limit.
type PredictionFilter struct {
	IMO      overwatch.IMO
	Category string
	Port     string
	BBox     *[4]float64
	Cursor   overwatch.IMO
	Before   time.Time
	Limit    int
}

// PredictionStore reads stored predictions and gives the predictor its
// inputs for predictions as of a past instant.
type PredictionStore interface {
	predict.Source
	// PredictionSpan is the time of the oldest and newest stored position.
	PredictionSpan(ctx context.Context) (first, last time.Time, err error)
	Predictions(ctx context.Context, f PredictionFilter) ([]predict.Prediction, error)
}

// predictionRoutes mounts the prediction endpoints; the accuracy is
// computed on read and cached until the port calls change.
func predictionRoutes(r route.Router, s PredictionStore, v VesselSearch, c *Cache) {
	acc := Cached(c, "prediction_accuracy", []string{tablePortCalls}, func(ctx context.Context, _ struct{}) (PredictionAccuracy, error) {
		return predictionAccuracy(ctx, s)
	})
	r.Handle(fiber.MethodGet, "/vessels/:imo/prediction", overwatch.AccessKey, VesselPrediction(s))
	r.Handle(fiber.MethodGet, "/predictions", overwatch.AccessKey, Predictions(s))
	r.Handle(fiber.MethodGet, "/predictions/accuracy", overwatch.AccessKey, PredictionAccuracyHandler(acc))
	r.Handle(fiber.MethodGet, "/ports/:slug/arrivals", overwatch.AccessKey, PortArrivals(s, v))
}

// PredictedPort is an item of a prediction's next_ports: ETA is the entry
// into the port area, [ETALow, ETAHigh] its 80% interval, BerthETA the ETA
// plus the port's current median wait at anchor (null when unknown).
type PredictedPort struct {
	Port        string  `json:"port"`
	PortName    string  `json:"port_name"`
	Probability float64 `json:"probability"`
	ETA         string  `json:"eta"`
	ETALow      string  `json:"eta_low"`
	ETAHigh     string  `json:"eta_high"`
	BerthETA    *string `json:"berth_eta"`
	DistanceNM  float64 `json:"distance_nm"`
	// Route is the way still to go along the sea lanes, [lat, lon] points
	// from the vessel's position (predict.RemainingRoute): in GET
	// /v1/vessels/{imo}/prediction only (absent from the lists), null when
	// unknown.
	Route *[][2]float64 `json:"route,omitempty"`
}

// Prediction is the body's prediction of GET /v1/vessels/{imo}/prediction
// and an item of GET /v1/predictions.
type Prediction struct {
	IMONumber string           `json:"imo_number"`
	Category  *string          `json:"category"`
	AsOf      string           `json:"as_of"`
	NextPorts []PredictedPort  `json:"next_ports"`
	Evidence  predict.Evidence `json:"evidence"`
}

// NewPrediction is the API form of a prediction; withRoute adds each next
// port's route (GET /v1/vessels/{imo}/prediction).
func NewPrediction(p predict.Prediction, withRoute bool) Prediction {
	out := Prediction{IMONumber: p.IMO.String(), AsOf: p.AsOf.UTC().Format(time.RFC3339), Evidence: p.Evidence,
		NextPorts: make([]PredictedPort, 0, len(p.Next))}
	if p.Category != "" {
		cat := p.Category
		out.Category = &cat
	}
	for _, n := range p.Next {
		pp := PredictedPort{Port: n.Port, Probability: n.Probability, ETA: rfc(n.ETA), ETALow: rfc(n.ETALow),
			ETAHigh: rfc(n.ETAHigh), DistanceNM: n.DistanceNM}
		if port, ok := seaport.BySlug(n.Port); ok {
			pp.PortName = port.Name
		}
		if n.BerthETA != nil {
			b := rfc(*n.BerthETA)
			pp.BerthETA = &b
		}
		if withRoute {
			route := predict.RemainingRoute(p.Evidence.LastPort, n.Port, p.Evidence.Position[0], p.Evidence.Position[1])
			pp.Route = &route
		}
		out.NextPorts = append(out.NextPorts, pp)
	}
	return out
}

func rfc(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// asOfParam reads as_of: an RFC 3339 instant within the stored positions'
// span; ok is false when absent.
func asOfParam(c *fiber.Ctx, s PredictionStore) (time.Time, bool, error) {
	t, ok, err := timeParam(c, "as_of")
	if err != nil || !ok {
		return t, ok, err
	}
	first, last, err := s.PredictionSpan(c.UserContext())
	if err != nil {
		return time.Time{}, false, err
	}
	if first.IsZero() || t.Before(first) || t.After(last.Add(time.Second)) {
		return time.Time{}, false, overwatch.Errorf(overwatch.Invalid, "as_of must lie within the stored history (%s to %s)",
			rfc(first), rfc(last)).With("parameter", "as_of")
	}
	return t, true, nil
}

// predictionsFor is the stored predictions of the filter, or those made on
// read as of asOf (filtered the same way) when ok.
func predictionsFor(ctx context.Context, s PredictionStore, f PredictionFilter, asOf time.Time, ok bool) ([]predict.Prediction, error) {
	if !ok {
		return s.Predictions(ctx, f)
	}
	var only []overwatch.IMO
	if f.IMO != 0 {
		only = []overwatch.IMO{f.IMO}
	}
	all, err := predict.AsOf(ctx, s, asOf, only)
	if err != nil {
		return nil, err
	}
	var out []predict.Prediction
	for _, p := range all {
		if p.IMO <= f.Cursor || (f.Category != "" && p.Category != f.Category) || (f.Port != "" && p.Next[0].Port != f.Port) {
			continue
		}
		if b := f.BBox; b != nil {
			lat, lon := p.Evidence.Position[0], p.Evidence.Position[1]
			if lon < b[0] || lat < b[1] || lon > b[2] || lat > b[3] {
				continue
			}
		}
		out = append(out, p)
		if f.Limit > 0 && len(out) == f.Limit {
			break
		}
	}
	return out, nil
}

// VesselPrediction serves GET /v1/vessels/{imo}/prediction: the vessel's
// predicted next ports from the newest refresh, or as of as_of. A vessel
// not under way (in port, or unheard of for two days) is a 404 naming it.
func VesselPrediction(s PredictionStore) fiber.Handler {
	return func(c *fiber.Ctx) error {
		imo, err := overwatch.ParseIMO(c.Params("imo"))
		if err != nil {
			return overwatch.Errorf(overwatch.Invalid, "imo %v", err).With("parameter", "imo")
		}
		asOf, ok, err := asOfParam(c, s)
		if err != nil {
			return err
		}
		preds, err := predictionsFor(c.UserContext(), s, PredictionFilter{IMO: imo, Limit: 1}, asOf, ok)
		if err != nil {
			return err
		}
		if len(preds) == 0 {
			return overwatch.Errorf(overwatch.NotFound, "no prediction for vessel %s (not under way)", imo.String())
		}
		return c.JSON(fiber.Map{"prediction": NewPrediction(preds[0], true)})
	}
}

// bboxParam reads bbox=min_lon,min_lat,max_lon,max_lat in degrees.
func bboxParam(c *fiber.Ctx) (*[4]float64, error) {
	raw := c.Query("bbox")
	if raw == "" {
		return nil, nil
	}
	bad := overwatch.Errorf(overwatch.Invalid, "bbox must be min_lon,min_lat,max_lon,max_lat in degrees").With("parameter", "bbox")
	parts := strings.Split(raw, ",")
	if len(parts) != 4 {
		return nil, bad
	}
	var b [4]float64
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return nil, bad
		}
		b[i] = v
	}
	if b[0] < -180 || b[2] > 180 || b[1] < -90 || b[3] > 90 || b[0] > b[2] || b[1] > b[3] {
		return nil, bad
	}
	return &b, nil
}

// Predictions serves GET /v1/predictions: every vessel under way, in IMO
// order, filtered by type (a ship type category), bbox and port (slug or
// id: the predicted next port), paged by cursor (the last IMO of the
// previous page) and limit (default 100, at most 1000 and the plan's
// results per call); as_of predicts on read from the data before it.
func Predictions(s PredictionStore) fiber.Handler {
	return func(c *fiber.Ctx) error {
		cat, err := categoryParam(c, "type")
		if err != nil {
			return err
		}
		bbox, err := bboxParam(c)
		if err != nil {
			return err
		}
		port, err := portParam(c, "port", false)
		if err != nil {
			return err
		}
		cursor, _, err := imoParam(c, "cursor", false)
		if err != nil {
			return err
		}
		limit, err := limitParam(c, 100, 1000)
		if err != nil {
			return err
		}
		asOf, ok, err := asOfParam(c, s)
		if err != nil {
			return err
		}
		f := PredictionFilter{BBox: bbox, Cursor: cursor, Limit: limit + 1}
		if cat != nil {
			f.Category = cat.Name
		}
		if port != nil {
			f.Port = port.Slug
		}
		preds, err := predictionsFor(c.UserContext(), s, f, asOf, ok)
		if err != nil {
			return err
		}
		page := Pagination{}
		if len(preds) > limit {
			preds = preds[:limit]
			next := preds[limit-1].IMO.String()
			page.HasMore, page.NextCursor = true, &next
		}
		out := make([]Prediction, len(preds))
		for i, p := range preds {
			out[i] = NewPrediction(p, false)
		}
		return c.JSON(fiber.Map{"predictions": out, "pagination": page})
	}
}

// Arrival is an item of GET /v1/ports/{slug}/arrivals: a vessel predicted
// to arrive within the window, with the probability that the port is its
// next and the ETA's 80% interval; DWT is estimated from its dimensions
// and deepest reported draught (null when unknown).
type Arrival struct {
	IMONumber   string   `json:"imo_number"`
	Name        *string  `json:"name"`
	Category    *string  `json:"category"`
	DWT         *float64 `json:"dwt"`
	Probability float64  `json:"probability"`
	ETA         string   `json:"eta"`
	ETALow      string   `json:"eta_low"`
	ETAHigh     string   `json:"eta_high"`
	BerthETA    *string  `json:"berth_eta"`
	DistanceNM  float64  `json:"distance_nm"`
}

// PortArrivals serves GET /v1/ports/{slug}/arrivals: the vessels whose
// predicted next ports (any of the three) include the port with an ETA
// within days (default 7, 1 to 30) of the prediction's instant, soonest
// first; as_of predicts on read from the data before it.
func PortArrivals(s PredictionStore, v VesselSearch) fiber.Handler {
	return func(c *fiber.Ctx) error {
		port, ok := seaport.ByRef(c.Params("slug"))
		if !ok {
			return overwatch.Errorf(overwatch.NotFound, "unknown port %s", truncate(c.Params("slug"), 40)).With("parameter", "slug")
		}
		days, err := intParam(c, "days", 7, 1, 30)
		if err != nil {
			return err
		}
		asOf, hasAsOf, err := asOfParam(c, s)
		if err != nil {
			return err
		}
		ctx := c.UserContext()
		preds, err := predictionsFor(ctx, s, PredictionFilter{}, asOf, hasAsOf)
		if err != nil {
			return err
		}
		vessels, err := v.Vessels(ctx, VesselFilter{Limit: fleetAll})
		if err != nil {
			return err
		}
		byIMO := make(map[overwatch.IMO]VesselRow, len(vessels))
		for _, r := range vessels {
			byIMO[r.IMO] = r
		}
		out := []Arrival{}
		for _, p := range preds {
			until := p.AsOf.Add(time.Duration(days) * 24 * time.Hour)
			for _, n := range p.Next {
				if n.Port != port.Slug || n.ETA.After(until) {
					continue
				}
				a := Arrival{IMONumber: p.IMO.String(), Probability: n.Probability, ETA: rfc(n.ETA), ETALow: rfc(n.ETALow),
					ETAHigh: rfc(n.ETAHigh), DistanceNM: n.DistanceNM}
				if n.BerthETA != nil {
					b := rfc(*n.BerthETA)
					a.BerthETA = &b
				}
				if p.Category != "" {
					cat := p.Category
					a.Category = &cat
				}
				if r, ok := byIMO[p.IMO]; ok {
					if r.Name != "" {
						name := r.Name
						a.Name = &name
					}
					if r.MaxDraftM != nil {
						if dwt, ok := vessel.EstimateDWT(r.ShipType, float64(r.LengthM), float64(r.BeamM), float64(*r.MaxDraftM)); ok {
							a.DWT = &dwt
						}
					}
				}
				out = append(out, a)
			}
		}
		slices.SortStableFunc(out, func(a, b Arrival) int { return strings.Compare(a.ETA, b.ETA) })
		return c.JSON(fiber.Map{"arrivals": out})
	}
}
