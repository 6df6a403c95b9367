package postgres_test

import (
	"context"
	"fmt"
	"overwatch/testclock"
	"sync"
	"testing"
	"time"
)

// TakeCooldown admits one run of a key per cooldown, exactly, under
// concurrency (as several instances would ask), tells the refused when
// they may run again, and keeps keys apart.
func TestTakeCooldown(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	key := fmt.Sprintf("test:%s:%d", t.Name(), time.Now().UnixNano())
	now := testclock.Now().Truncate(time.Millisecond)
	const cooldown = 5 * time.Minute
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		admitted int
		nexts    []time.Time
	)
	for range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			next, ok, err := db.TakeCooldown(ctx, key, now, cooldown)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				t.Error(err)
			}
			if ok {
				admitted++
			}
			nexts = append(nexts, next)
		}()
	}
	wg.Wait()
	if admitted != 1 {
		t.Fatalf("%d of 12 admitted at once", admitted)
	}
	for _, n := range nexts {
		if !n.Equal(now.Add(cooldown)) {
			t.Errorf("next %v, want %v", n, now.Add(cooldown))
		}
	}
	if next, ok, err := db.TakeCooldown(ctx, key, now.Add(cooldown-time.Second), cooldown); ok || err != nil || !next.Equal(now.Add(cooldown)) {
		t.Errorf("a second before the end: %v %v %v", next, ok, err)
	}
	if _, ok, err := db.TakeCooldown(ctx, key+":other", now.Add(time.Second), cooldown); !ok || err != nil {
		t.Errorf("another key: %v %v", ok, err)
	}
	if next, ok, err := db.TakeCooldown(ctx, key, now.Add(cooldown), cooldown); !ok || err != nil || !next.Equal(now.Add(2*cooldown)) {
		t.Errorf("after the cooldown: %v %v %v", next, ok, err)
	}
}
