package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
)

// ErrUsage is the error of a command line that is not a command: the
// usage has been printed.
var ErrUsage = errors.New("usage")

const usage = `usage: overwatch <command> [flags]

commands:
  run                     the API, ingest and jobs in one process
  serve                   the HTTP API
  ingest                  the AIS feeds of OVERWATCH_FEEDS into ClickHouse
  jobs [--once | --job NAME]
                          the scheduled jobs of the job table (port calls, congestion, ...);
                          --once runs every refresh whose source is configured, then
                          every derivation, once, in order, and exits
  import history [--source PROVIDER] [--format F] [--force] FILE...
                          import AIS history archives (MarineCadastre, DMA aisdk,
                          BarentsWatch, GFW gpsdio, NMEA; plain, .gz or .zip)
  import actuals [--source S] FILE...
                          import official export figures (CSV: port, week,
                          commodity, tonnes[, source]; or USDA WA_GR101 reports;
                          see README)
  replay --source S FILE...
                          replay NMEA capture files (S: aishub, aisstream, satellite, spire)
  simulate [flags]        the fleet simulator: a backfill into ClickHouse through the
                          ingest pipeline (or NMEA over TCP with --serve), --live for
                          real time, --truth FILE for the ground truth; -h for flags
  migrate                 apply the ClickHouse and PostgreSQL migrations
  keys create --email E --plan free|starter|pro|supply_chain_risk [--name N]
                          create the account if needed and print a new key once
  keys revoke --id N      revoke a key
  calibration set --port P --commodity C --factor F --reason R [--by NAME]
  calibration list
  calibration clear --port P --commodity C
                          manual calibration overrides of the export estimates
  openapi [FILE]          print the OpenAPI document (/v1/openapi.json), or write it to FILE

Configuration is read from the environment; see README.md.
`

// Run is the whole program; main only supplies the process's environment.
func Run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	return RunWith(ctx, args, getenv, stdout, stderr, net.Listen)
}

// RunWith is run with the function that opens the API's listener: the
// end-to-end tests hand in a listener they opened on a free port, so that
// they know the server's address without asking it.
func RunWith(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer,
	listen func(network, addr string) (net.Listener, error)) error {
	if len(args) < 2 {
		fmt.Fprint(stderr, usage)
		return ErrUsage
	}
	cmd := args[1]
	if cmd == "help" || cmd == "-h" || cmd == "--help" {
		fmt.Fprint(stdout, usage)
		return nil
	}
	cfg, err := LoadConfig(getenv)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))
	switch cmd {
	case "run":
		return serve(ctx, cfg, log, true, stdout, terminal(stderr), listen)
	case "serve":
		return serve(ctx, cfg, log, false, stdout, nil, listen)
	case "simulate":
		return simulateCommand(ctx, cfg, log, args[2:], stdout, stderr)
	case "ingest":
		return ingestCommand(ctx, cfg, log)
	case "jobs":
		return jobsCommand(ctx, cfg, log, args[2:], stdout, stderr)
	case "import":
		return importCommand(ctx, cfg, log, args[2:], stdout, stderr)
	case "replay":
		return replayCommand(ctx, cfg, log, args[2:], stdout, stderr)
	case "migrate":
		ch, pg, err := stores(ctx, cfg, log)
		if err != nil {
			return err
		}
		ch.Close()
		pg.Close()
		return nil
	case "keys":
		return keysCommand(ctx, cfg, args[2:], stdout, stderr)
	case "calibration":
		return calibrationCommand(ctx, cfg, log, args[2:], stdout, stderr)
	case "openapi":
		return openapiCommand(args[2:], stdout)
	}
	fmt.Fprintf(stderr, "overwatch: unknown command %q\n\n%s", cmd, usage)
	return ErrUsage
}
