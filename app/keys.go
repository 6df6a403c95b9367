package app

import (
	"context"
	"flag"
	"fmt"
	"io"

	"overwatch"
	"overwatch/postgres"
	"overwatch/write"
)

// keysCommand runs `overwatch keys create|revoke`. create prints the new key,
// alone, on stdout (so scripts can capture it) and the details on stderr.
func keysCommand(ctx context.Context, cfg Config, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return ErrUsage
	}
	fs := flag.NewFlagSet("keys "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	switch args[0] {
	case "create":
		email := fs.String("email", "", "account email (created if new)")
		planName := fs.String("plan", "free", "free, starter, pro or supply_chain_risk")
		name := fs.String("name", "", "a label for the key")
		if err := fs.Parse(args[1:]); err != nil {
			return ErrUsage
		}
		if *email == "" {
			return fmt.Errorf("keys create: --email is required")
		}
		plan, ok := overwatch.ParsePlan(*planName)
		if !ok {
			return fmt.Errorf("keys create: --plan must be free, starter, pro or supply_chain_risk")
		}
		pg, err := postgres.Open(ctx, cfg.DatabaseURL)
		if err != nil {
			return err
		}
		defer pg.Close()
		if _, err := pg.Migrate(ctx); err != nil {
			return err
		}
		key, prefix, hash, err := overwatch.NewAPIKey()
		if err != nil {
			return err
		}
		account, id, err := pg.CreateAccountKey(ctx, *email, plan, write.NewKey{Name: *name, Prefix: prefix, Hash: hash}, write.MaxActiveKeys)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, key)
		fmt.Fprintf(stderr, "created key %d (%s...) for account %d <%s> on plan %s\n%s\n", id, prefix, account, *email, plan, write.KeyWarning)
		return nil
	case "revoke":
		id := fs.Int64("id", 0, "key id (see GET /v1/keys)")
		if err := fs.Parse(args[1:]); err != nil {
			return ErrUsage
		}
		if *id <= 0 {
			return fmt.Errorf("keys revoke: --id is required")
		}
		pg, err := postgres.Open(ctx, cfg.DatabaseURL)
		if err != nil {
			return err
		}
		defer pg.Close()
		if err := pg.RevokeKey(ctx, 0, *id); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "revoked key %d\n", *id)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return ErrUsage
}
