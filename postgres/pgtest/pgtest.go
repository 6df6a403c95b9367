// Package pgtest gives integration tests a fresh PostgreSQL database on the
// local server. When the server does not answer, tests skip, unless CI=true,
// where they fail: in CI every test must run.
package pgtest

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// DefaultServer is the local server of `make services`.
const DefaultServer = "postgres://postgres@127.0.0.1:5432"

var (
	mu      sync.Mutex
	created = map[string]bool{}
	valid   = regexp.MustCompile(`^[a-z0-9_]+$`)
)

// Server returns the server URL tests use: POSTGRES_TEST_SERVER or the
// local default, without a database.
func Server() string {
	if s := os.Getenv("POSTGRES_TEST_SERVER"); s != "" {
		return s
	}
	return DefaultServer
}

// URL returns the URL of database ow_test_<prefix><name> (prefix:
// OVERWATCH_TEST_DB_PREFIX, for two test runs side by side), dropped and created afresh
// the first time a test binary asks for it, so each package starts empty.
func URL(t testing.TB, name string) string {
	t.Helper()
	if !valid.MatchString(name) {
		t.Fatalf("pgtest: bad name %q", name)
	}
	db := "ow_test_" + prefix() + name
	mu.Lock()
	defer mu.Unlock()
	if !created[db] {
		if err := recreate(db); err != nil {
			Unavailable(t, err)
		}
		created[db] = true
	}
	return Server() + "/" + db + "?sslmode=disable"
}

// Unavailable skips the test, or fails it when CI=true.
func Unavailable(t testing.TB, err error) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("PostgreSQL is required in CI and does not answer at %s: %v", Server(), err)
	}
	t.Skipf("PostgreSQL does not answer at %s (run `make services`): %v", Server(), err)
}

func recreate(db string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, Server()+"/postgres?sslmode=disable&connect_timeout=3")
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	ident := pgx.Identifier{db}.Sanitize()
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+ident+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("drop %s: %w", db, err)
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+ident); err != nil {
		return fmt.Errorf("create %s: %w", db, err)
	}
	return nil
}

// prefix is OVERWATCH_TEST_DB_PREFIX when it is a valid name part: test
// runs that set different prefixes use different databases.
func prefix() string {
	if p := os.Getenv("OVERWATCH_TEST_DB_PREFIX"); valid.MatchString(p) {
		return p
	}
	return ""
}
