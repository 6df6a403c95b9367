package app

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os/user"
	"regexp"
	"strings"
	"time"

	"overwatch/maritime/calibration"
	"overwatch/maritime/seaport"
)

const calibrationUsage = `usage: overwatch calibration set --port P --commodity C --factor F --reason R [--by NAME]
       overwatch calibration list
       overwatch calibration clear --port P --commodity C
P is a port slug or its UUID; C a commodity (as imported: corn, wheat,
soybeans, ...) or "all" for the port's estimates as a whole; F a factor
above 0 and at most 100 that the estimates are multiplied by.
`

// commodityRE is what a calibration commodity may be.
var commodityRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_ -]{0,63}$`)

// calibrationCommand manages the manual calibration overrides
// (`overwatch calibration set|list|clear`), kept in PostgreSQL with who set
// them (--by, else the OS user) and when; an override wins over the
// self-calibrated factor at once (docs/calibration.md).
func calibrationCommand(ctx context.Context, cfg Config, log *slog.Logger, args []string, stdout, stderr io.Writer) error {
	if len(args) < 1 {
		fmt.Fprint(stderr, calibrationUsage)
		return ErrUsage
	}
	fs := flag.NewFlagSet("calibration "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	portRef := fs.String("port", "", "port slug or UUID")
	commodity := fs.String("commodity", "", `commodity, or "all"`)
	factor := fs.Float64("factor", 0, "factor (0 < F <= 100)")
	reason := fs.String("reason", "", "why (kept with the override)")
	by := fs.String("by", "", "who sets it (default: the OS user)")
	if err := fs.Parse(args[1:]); err != nil || fs.NArg() > 0 {
		fmt.Fprint(stderr, calibrationUsage)
		return ErrUsage
	}
	var m calibration.Manual
	if args[0] == "set" || args[0] == "clear" {
		p, ok := seaport.ByRef(strings.TrimSpace(*portRef))
		if !ok {
			fmt.Fprintf(stderr, "overwatch calibration: --port %q is not a port slug or UUID (see /v1/ports)\n", *portRef)
			return ErrUsage
		}
		c := strings.ToLower(strings.TrimSpace(*commodity))
		if !commodityRE.MatchString(c) {
			fmt.Fprintf(stderr, "overwatch calibration: --commodity %q must be 1 to 64 letters, digits, '_', '-' or spaces, or \"all\"\n", *commodity)
			return ErrUsage
		}
		m.Port, m.Commodity = p.Slug, c
	}
	switch args[0] {
	case "set":
		if math.IsNaN(*factor) || *factor <= 0 || *factor > 100 {
			fmt.Fprintf(stderr, "overwatch calibration: --factor %v must be above 0 and at most 100\n", *factor)
			return ErrUsage
		}
		m.Factor, m.Reason, m.By, m.At = *factor, strings.TrimSpace(*reason), strings.TrimSpace(*by), time.Now().UTC()
		if m.Reason == "" || len(m.Reason) > 500 {
			fmt.Fprint(stderr, "overwatch calibration: --reason is required (at most 500 characters)\n")
			return ErrUsage
		}
		if m.By == "" {
			m.By = osUser()
		}
	case "list", "clear":
	default:
		fmt.Fprint(stderr, calibrationUsage)
		return ErrUsage
	}
	ch, pg, err := stores(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer ch.Close()
	defer pg.Close()
	switch args[0] {
	case "set":
		m, err = pg.SetCalibrationOverride(ctx, m)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s %s: factor %g set by %s at %s (%s)\n", m.Port, m.Commodity, m.Factor, m.By, m.At.Format(time.RFC3339), m.Reason)
	case "clear":
		ok, err := pg.ClearCalibrationOverride(ctx, m.Port, m.Commodity)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("overwatch calibration: no override of %s %s", m.Port, m.Commodity)
		}
		fmt.Fprintf(stdout, "%s %s: override cleared\n", m.Port, m.Commodity)
	case "list":
		list, err := pg.CalibrationOverrides(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%-20s %-12s %8s  %-16s %-20s  %s\n", "PORT", "COMMODITY", "FACTOR", "SET BY", "SET AT", "REASON")
		for _, m := range list {
			fmt.Fprintf(stdout, "%-20s %-12s %8g  %-16s %-20s  %s\n", m.Port, m.Commodity, m.Factor, m.By, m.At.Format(time.RFC3339), m.Reason)
		}
	}
	return nil
}

// osUser is the name of the OS user running the command.
func osUser() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return "unknown"
}
