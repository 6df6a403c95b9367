// Package chtest gives integration tests a fresh ClickHouse database on the
// local server. When the server does not answer, tests skip, unless CI=true,
// where they fail: in CI every test must run.
package chtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sync"
	"testing"
	"time"

	"overwatch/clickhouse"

	ch "github.com/ClickHouse/clickhouse-go/v2"
)

// DefaultServer is the local server of `make services`.
const DefaultServer = "clickhouse://127.0.0.1:9000"

var (
	mu      sync.Mutex
	created = map[string]bool{}
	valid   = regexp.MustCompile(`^[a-z0-9_]+$`)
)

// Server returns the server URL tests use: CLICKHOUSE_TEST_SERVER or the
// local default, without a database.
func Server() string {
	if s := os.Getenv("CLICKHOUSE_TEST_SERVER"); s != "" {
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
		t.Fatalf("chtest: bad name %q", name)
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
	return dbURL(db)
}

// dbURL is the URL of database db on the test server, in cluster mode
// when Cluster is set.
func dbURL(db string) string {
	if c := Cluster(); c != "" {
		return Server() + "/" + db + "?cluster=" + c
	}
	return Server() + "/" + db
}

// Cluster is OVERWATCH_CLICKHOUSE_CLUSTER: when set, the test server
// (CLICKHOUSE_TEST_SERVER, its nodes comma-separated) is a cluster of
// that name, test databases are created and dropped ON CLUSTER, and the
// URLs of URL open the database in cluster mode.
func Cluster() string { return os.Getenv("OVERWATCH_CLICKHOUSE_CLUSTER") }

// Unavailable skips the test, or fails it when CI=true.
func Unavailable(t testing.TB, err error) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("ClickHouse is required in CI and does not answer at %s: %v", Server(), err)
	}
	t.Skipf("ClickHouse does not answer at %s (run `make services`): %v", Server(), err)
}

func recreate(db string) error {
	opts, err := ch.ParseDSN(Server() + "/default")
	if err != nil {
		return err
	}
	opts.DialTimeout = 2 * time.Second
	conn, err := ch.Open(opts)
	if err != nil {
		return err
	}
	defer conn.Close()
	// Dropping a database that an accuracy run filled (millions of rows)
	// takes ClickHouse 18.16 a while on a busy machine.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	onCluster := ""
	if c := Cluster(); c != "" {
		if !valid.MatchString(c) {
			return fmt.Errorf("bad cluster name %q", c)
		}
		onCluster = " ON CLUSTER " + c
	}
	if err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+db+onCluster); err != nil {
		return fmt.Errorf("drop %s: %w", db, err)
	}
	if err := conn.Exec(ctx, "CREATE DATABASE "+db+onCluster); err != nil {
		return fmt.Errorf("create %s: %w", db, err)
	}
	return nil
}

// DB opens the database of URL(t, name), migrated, closed at cleanup.
func DB(t testing.TB, name string) *clickhouse.DB {
	t.Helper()
	db, err := clickhouse.Open(URL(t, name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return db
}

// prefix is OVERWATCH_TEST_DB_PREFIX when it is a valid name part: test
// runs that set different prefixes use different databases.
func prefix() string {
	if p := os.Getenv("OVERWATCH_TEST_DB_PREFIX"); valid.MatchString(p) {
		return p
	}
	return ""
}

// Prepare creates and migrates the databases of URL(t, name) for each of
// names before the tests ask for them, a few at a time, while the server
// has room: a migration is dozens of statements, each DDL ON CLUSTER on a
// cluster (measured in make test: the clickhouse package 27 s to 25 s on
// one node, 99 s to 88 s on the cluster, whose nodes apply DDL one task at
// a time). A package's TestMain calls
// it with the names its tests use; a test that later asks for one of them
// finds it created and migrated (each once per test binary, as URL does). A
// database that fails here is left to the test that asks for it, which
// skips or fails as URL does; the error is returned for the log.
func Prepare(names ...string) error {
	sem := make(chan struct{}, 6)
	errs := make(chan error, len(names))
	var wg sync.WaitGroup
	for _, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			errs <- prepare(name)
		}()
	}
	wg.Wait()
	close(errs)
	var all []error
	for err := range errs {
		if err != nil {
			all = append(all, err)
		}
	}
	return errors.Join(all...)
}

// prepare is Prepare for one name.
func prepare(name string) error {
	if !valid.MatchString(name) {
		return fmt.Errorf("chtest: bad name %q", name)
	}
	db := "ow_test_" + prefix() + name
	mu.Lock()
	done := created[db]
	mu.Unlock()
	if done {
		return nil
	}
	if err := recreate(db); err != nil {
		return err
	}
	store, err := clickhouse.Open(dbURL(db))
	if err != nil {
		return err
	}
	defer store.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if _, err := store.Migrate(ctx); err != nil {
		return fmt.Errorf("migrate %s: %w", db, err)
	}
	mu.Lock()
	created[db] = true
	mu.Unlock()
	return nil
}
