package postgres_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"overwatch"
	"overwatch/postgres"
	"overwatch/postgres/pgtest"
	"overwatch/write"
)

func openDB(t *testing.T) *postgres.DB {
	t.Helper()
	ctx := context.Background()
	db, err := postgres.Open(ctx, pgtest.URL(t, "postgres"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	if _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	return db
}

func newKey(t *testing.T) (string, write.NewKey) {
	t.Helper()
	key, prefix, hash, err := overwatch.NewAPIKey()
	if err != nil {
		t.Fatal(err)
	}
	return key, write.NewKey{Prefix: prefix, Hash: hash, Name: "test"}
}

var emails atomic.Int64

func uniqueEmail(t *testing.T) string {
	return fmt.Sprintf("%s-%d-%d@example.com", t.Name(), time.Now().UnixNano(), emails.Add(1))
}

func TestMigrateIsIdempotent(t *testing.T) {
	db := openDB(t)
	applied, err := db.Migrate(context.Background())
	if err != nil || len(applied) != 0 {
		t.Fatalf("second migrate: %v, %v", applied, err)
	}
}

func TestMigrateCreatesDatabase(t *testing.T) {
	ctx := context.Background()
	url := pgtest.URL(t, "postgres_fresh")
	// Drop the database the helper made: Migrate must create it again.
	admin, err := postgres.Open(ctx, pgtest.Server()+"/postgres?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	name := url[strings.LastIndex(url, "/")+1:]
	if i := strings.IndexByte(name, '?'); i >= 0 {
		name = name[:i]
	}
	if err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
		t.Fatal(err)
	}
	db, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	applied, err := db.Migrate(ctx)
	if err != nil || len(applied) == 0 {
		t.Fatalf("migrate into a missing database: %v, %v", applied, err)
	}
}

func TestKeysLifecycle(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	email := uniqueEmail(t)
	key, nk := newKey(t)
	account, keyID, err := db.CreateAccountKey(ctx, email, overwatch.PlanStarter, nk, write.MaxActiveKeys)
	if err != nil {
		t.Fatal(err)
	}
	hash, _ := overwatch.ParseAPIKey(key)
	caller, err := db.Authenticate(ctx, hash)
	if err != nil {
		t.Fatal(err)
	}
	if caller.AccountID != account || caller.KeyID != keyID || caller.Plan != overwatch.PlanStarter || caller.Email != email {
		t.Fatalf("caller %+v", caller)
	}

	// The same email (any case) is the same account; the plan follows the operator.
	_, nk2 := newKey(t)
	account2, _, err := db.CreateAccountKey(ctx, " "+upper(email)+" ", overwatch.PlanPro, nk2, write.MaxActiveKeys)
	if err != nil || account2 != account {
		t.Fatalf("second key: account %d vs %d, %v", account2, account, err)
	}
	if caller, _ := db.Authenticate(ctx, hash); caller.Plan != overwatch.PlanPro {
		t.Errorf("plan change did not apply at once: %s", caller.Plan)
	}

	keys, err := db.ListKeys(ctx, account)
	if err != nil || len(keys) != 2 {
		t.Fatalf("list: %v, %v", keys, err)
	}
	if keys[0].ID <= keys[1].ID || keys[1].Prefix != nk.Prefix || keys[1].LastUsedAt == nil || keys[0].LastUsedAt != nil {
		t.Errorf("list order, prefix or last_used_at wrong: %+v", keys)
	}

	// Another account cannot revoke it; the owner can, once.
	otherAccount, _, err := db.CreateAccountKey(ctx, uniqueEmail(t), overwatch.PlanFree, func() write.NewKey { _, k := newKey(t); return k }(), write.MaxActiveKeys)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.RevokeKey(ctx, otherAccount, keyID); overwatch.ErrorCode(err) != overwatch.NotFound {
		t.Fatalf("cross-account revoke: %v", err)
	}
	if err := db.RevokeKey(ctx, account, keyID); err != nil {
		t.Fatal(err)
	}
	if err := db.RevokeKey(ctx, account, keyID); overwatch.ErrorCode(err) != overwatch.NotFound {
		t.Fatalf("second revoke: %v", err)
	}
	if _, err := db.Authenticate(ctx, hash); overwatch.ErrorCode(err) != overwatch.NotFound {
		t.Fatalf("revoked key authenticated: %v", err)
	}
	keys, _ = db.ListKeys(ctx, account)
	if keys[1].RevokedAt == nil {
		t.Error("revoked_at not shown")
	}
	var unknown overwatch.KeyHash
	if _, err := db.Authenticate(ctx, unknown); overwatch.ErrorCode(err) != overwatch.NotFound {
		t.Fatalf("unknown key: %v", err)
	}
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 32
		}
	}
	return string(b)
}

func TestKeyCapHoldsUnderConcurrency(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	_, nk := newKey(t)
	account, _, err := db.CreateAccountKey(ctx, uniqueEmail(t), overwatch.PlanFree, nk, 5)
	if err != nil {
		t.Fatal(err)
	}
	var ok, conflict atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, k := newKey(t)
			k.AccountID = account
			_, err := db.CreateKey(ctx, k, 5)
			switch overwatch.ErrorCode(err) {
			case overwatch.Conflict:
				conflict.Add(1)
			default:
				if err != nil {
					t.Error(err)
				} else {
					ok.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if ok.Load() != 4 || conflict.Load() != 16 {
		t.Fatalf("created %d, refused %d; want 4 and 16 (cap 5, one existing)", ok.Load(), conflict.Load())
	}
	if _, err := db.CreateKey(ctx, write.NewKey{AccountID: 1 << 60, Prefix: "ow_x", Hash: overwatch.KeyHash{1}}, 5); overwatch.ErrorCode(err) != overwatch.NotFound {
		t.Fatalf("key for a missing account: %v", err)
	}
}
