package app

import (
	"strings"
	"testing"
	"time"
)

func TestConfigDefaults(t *testing.T) {
	cfg, err := LoadConfig(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Addr != ":8080" || cfg.ClickHouseURL != "clickhouse://127.0.0.1:9000/overwatch" ||
		cfg.DatabaseURL != "postgres://postgres@127.0.0.1:5432/overwatch?sslmode=disable" ||
		cfg.PublicPerMinute != 60 || cfg.PublicPerDay != 1000 || cfg.KeyedPerMinute != 60 ||
		cfg.RateStore != "memory" || cfg.LatestSyncInterval != time.Second || len(cfg.TrustedProxies) != 0 || cfg.FreightMinContributors != 5 {
		t.Errorf("defaults: %+v", cfg)
	}
}

func TestConfigErrorsNameTheVariable(t *testing.T) {
	env := map[string]string{
		"OVERWATCH_PUBLIC_LIMIT_PER_MINUTE":  "0",
		"OVERWATCH_PUBLIC_URL":               "not a url",
		"OVERWATCH_RATE_LIMIT_STORE":         "redis",
		"OVERWATCH_TRUSTED_PROXIES":          "10.0.0.0/8, nonsense",
		"OVERWATCH_LATEST_SYNC_INTERVAL":     "fast",
		"OVERWATCH_LOG_LEVEL":                "loud",
		"OVERWATCH_FREIGHT_MIN_CONTRIBUTORS": "3", // two accounts could isolate a third
	}
	_, err := LoadConfig(func(k string) string { return env[k] })
	if err == nil {
		t.Fatal("bad configuration accepted")
	}
	for k := range env {
		if !strings.Contains(err.Error(), k) {
			t.Errorf("error does not name %s: %v", k, err)
		}
	}
	cfg, err := LoadConfig(func(k string) string {
		return map[string]string{"OVERWATCH_TRUSTED_PROXIES": "10.0.0.0/8,192.168.1.7, ::1"}[k]
	})
	if err != nil || len(cfg.TrustedProxies) != 3 || cfg.TrustedProxies[1].Bits() != 32 || cfg.TrustedProxies[2].Bits() != 128 {
		t.Errorf("proxies: %v %v", cfg.TrustedProxies, err)
	}
}

func TestSettingsAreDocumented(t *testing.T) {
	readme := readFile(t, "../README.md")
	for _, s := range settings {
		if !strings.Contains(readme, "`"+s.Name+"`") {
			t.Errorf("README.md does not document %s", s.Name)
		}
	}
}

// TestClockStart: OVERWATCH_CLOCK_START starts the service's clock at an
// instant, from which it runs at real speed; unset, it is the real time;
// a malformed value is refused naming the variable.
func TestClockStart(t *testing.T) {
	start := time.Date(2028, 2, 29, 12, 0, 0, 0, time.UTC)
	cfg, err := LoadConfig(func(k string) string {
		return map[string]string{"OVERWATCH_CLOCK_START": "2028-02-29T12:00:00Z"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	first := cfg.Now()
	time.Sleep(20 * time.Millisecond)
	second := cfg.Now()
	if first.Before(start) || first.Sub(start) > time.Second || second.Sub(first) < 20*time.Millisecond || second.Location() != time.UTC {
		t.Errorf("clock from %v: %v, then %v", start, first, second)
	}
	cfg, err = LoadConfig(func(string) string { return "" })
	if now := cfg.clock()(); err != nil || time.Since(now).Abs() > time.Second {
		t.Errorf("unset: %v %v", now, err)
	}
	if (Config{}).clock()().IsZero() {
		t.Error("a config made by hand has no clock")
	}
	if _, err := LoadConfig(func(k string) string {
		return map[string]string{"OVERWATCH_CLOCK_START": "tomorrow"}[k]
	}); err == nil || !strings.Contains(err.Error(), "OVERWATCH_CLOCK_START") {
		t.Errorf("malformed: %v", err)
	}
}
