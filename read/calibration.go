package read

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"

	"overwatch"
	"overwatch/maritime/calibration"
	"overwatch/maritime/seaport"
	"overwatch/route"
)

// tableCalibration is the self-calibrated factors' table.
const tableCalibration = "calibration_factors"

// SelfCalibrationStore returns the current self-calibrated factors and
// when they were computed (zero: never).
type SelfCalibrationStore interface {
	SelfCalibration(ctx context.Context) ([]calibration.Factor, time.Time, error)
}

// ManualCalibrationStore returns the operators' overrides.
type ManualCalibrationStore interface {
	CalibrationOverrides(ctx context.Context) ([]calibration.Manual, error)
}

// selfCalibration is a cached answer of SelfCalibrationStore.
type selfCalibration struct {
	Factors  []calibration.Factor
	Computed time.Time
}

// Calibrations are the factors the read side applies: the self-calibrated
// ones (ClickHouse, cached until the calibration job writes a new
// generation) and the manual overrides (PostgreSQL, read on every request:
// an override applies at once). A nil *Calibrations applies nothing.
type Calibrations struct {
	self   Query[struct{}, selfCalibration]
	manual ManualCalibrationStore
}

// NewCalibrations returns the calibrations of the stores.
func NewCalibrations(self SelfCalibrationStore, manual ManualCalibrationStore, c *Cache) *Calibrations {
	return &Calibrations{self: Cached(c, "calibration", []string{tableCalibration},
		func(ctx context.Context, _ struct{}) (selfCalibration, error) {
			f, at, err := self.SelfCalibration(ctx)
			return selfCalibration{f, at}, err
		}), manual: manual}
}

// load returns the self-calibrated factors, the overrides and the factors
// in force (calibration.Resolve).
func (cs *Calibrations) load(ctx context.Context) (selfCalibration, []calibration.Manual, []calibration.InForce, error) {
	self, err := cs.self(ctx, struct{}{})
	if err != nil {
		return self, nil, nil, err
	}
	manual, err := cs.manual.CalibrationOverrides(ctx)
	if err != nil {
		return self, nil, nil, err
	}
	return self, manual, calibration.Resolve(self.Factors, manual), nil
}

// calibrationRoutes mounts GET /v1/calibration.
func calibrationRoutes(r route.Router, cs *Calibrations) {
	r.Handle(fiber.MethodGet, "/calibration", overwatch.AccessKey, CalibrationHandler(cs))
}

// CalibrationSummary is the calibration key of GET /v1/calibration: how
// the factors are fitted and chosen, and the factor applied to each port's
// estimates.
type CalibrationSummary struct {
	Method     string            `json:"method"`
	MinWeeks   int               `json:"min_weeks"`
	Precedence string            `json:"precedence"`
	ComputedAt *string           `json:"computed_at"`
	Ports      []PortCalibration `json:"ports"`
}

// PortCalibration is the factor applied to a port's estimates.
type PortCalibration struct {
	Port     string  `json:"port"`
	PortName string  `json:"port_name"`
	Factor   float64 `json:"factor"`
	Source   string  `json:"source"`
}

// CalibrationFactor is an item of overrides: the factor in force for a
// port and commodity ("all": the port's estimates as a whole).
type CalibrationFactor struct {
	Port      string  `json:"port"`
	PortName  string  `json:"port_name"`
	Commodity string  `json:"commodity"`
	Factor    float64 `json:"factor"`
	Source    string  `json:"source"`
}

// SelfCalibrated is an item of self_calibrated.
type SelfCalibrated struct {
	Port           string  `json:"port"`
	PortName       string  `json:"port_name"`
	Commodity      string  `json:"commodity"`
	Factor         float64 `json:"factor"`
	Weeks          int     `json:"weeks"`
	FirstWeek      string  `json:"first_week"`
	LastWeek       string  `json:"last_week"`
	EstimateTonnes float64 `json:"estimate_tonnes"`
	ActualTonnes   float64 `json:"actual_tonnes"`
	MAPEBefore     float64 `json:"mape_before"`
	MAPEAfter      float64 `json:"mape_after"`
}

// ManualOverride is an item of manual_overrides.
type ManualOverride struct {
	Port      string  `json:"port"`
	PortName  string  `json:"port_name"`
	Commodity string  `json:"commodity"`
	Factor    float64 `json:"factor"`
	Reason    string  `json:"reason"`
	SetBy     string  `json:"set_by"`
	SetAt     string  `json:"set_at"`
}

func calibrationPortName(slug string) string {
	if p, ok := seaport.BySlug(slug); ok {
		return p.Name
	}
	return ""
}

// CalibrationHandler serves GET /v1/calibration (no parameters):
// { calibration, overrides, self_calibrated, manual_overrides }, each list
// by port then commodity (docs/calibration.md).
func CalibrationHandler(cs *Calibrations) fiber.Handler {
	return func(c *fiber.Ctx) error {
		self, manual, force, err := cs.load(c.UserContext())
		if err != nil {
			return err
		}
		sum := CalibrationSummary{Method: "ratio_of_sums", MinWeeks: calibration.MinWeeks,
			Precedence: "manual override, else self-calibrated, else none (factor 1)", Ports: []PortCalibration{}}
		if !self.Computed.IsZero() {
			at := self.Computed.UTC().Format(time.RFC3339)
			sum.ComputedAt = &at
		}
		overrides := make([]CalibrationFactor, 0, len(force))
		for _, f := range force {
			overrides = append(overrides, CalibrationFactor{Port: f.Port, PortName: calibrationPortName(f.Port), Commodity: f.Commodity,
				Factor: roundTo(f.Factor, 4), Source: f.Source})
			if f.Commodity == calibration.All {
				sum.Ports = append(sum.Ports, PortCalibration{Port: f.Port, PortName: calibrationPortName(f.Port), Factor: roundTo(f.Factor, 4), Source: f.Source})
			}
		}
		selfOut := make([]SelfCalibrated, 0, len(self.Factors))
		for _, f := range self.Factors {
			selfOut = append(selfOut, SelfCalibrated{Port: f.Port, PortName: calibrationPortName(f.Port), Commodity: f.Commodity,
				Factor: roundTo(f.Factor, 4), Weeks: f.Weeks, FirstWeek: f.From.Format(time.DateOnly), LastWeek: f.To.Format(time.DateOnly),
				EstimateTonnes: roundTo(f.EstimateTonnes, 0), ActualTonnes: roundTo(f.ActualTonnes, 0),
				MAPEBefore: roundTo(f.MAPEBefore, 2), MAPEAfter: roundTo(f.MAPEAfter, 2)})
		}
		manualOut := make([]ManualOverride, 0, len(manual))
		for _, m := range manual {
			manualOut = append(manualOut, ManualOverride{Port: m.Port, PortName: calibrationPortName(m.Port), Commodity: m.Commodity,
				Factor: m.Factor, Reason: m.Reason, SetBy: m.By, SetAt: m.At.UTC().Format(time.RFC3339)})
		}
		return c.JSON(fiber.Map{"calibration": sum, "overrides": overrides, "self_calibrated": selfOut, "manual_overrides": manualOut})
	}
}

// calibrate applies the factor in force for the estimate's port.
func (e *Estimate) calibrate(force []calibration.InForce) {
	f, source := calibration.ForPort(force, e.Port)
	e.CalibrationFactor, e.CalibrationSource = roundTo(f, 4), source
	e.CalibratedTonnage = roundTo(e.Tonnage*e.CalibrationFactor, 0)
}
