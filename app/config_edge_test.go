package app

import (
	"strings"
	"testing"
	"time"
)

// The edge's settings: their defaults, and refusals that name them.
func TestEdgeConfig(t *testing.T) {
	cfg, err := LoadConfig(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.FailedKeysPerMin != 20 || cfg.UnknownKeyTTL != time.Minute || cfg.EventsPerMinute != 300 ||
		cfg.ReadTimeout != 15*time.Second || cfg.MetricsAddr != "127.0.0.1:9464" || cfg.MetricsToken != "" {
		t.Errorf("defaults: %+v", cfg)
	}
	env := map[string]string{
		"OVERWATCH_FAILED_KEY_LIMIT_PER_MINUTE":      "0",
		"OVERWATCH_UNKNOWN_KEY_CACHE":                "forever",
		"OVERWATCH_BILLING_WEBHOOK_LIMIT_PER_MINUTE": "-3",
		"OVERWATCH_READ_TIMEOUT":                     "0s",
	}
	_, err = LoadConfig(func(k string) string { return env[k] })
	for k := range env {
		if err == nil || !strings.Contains(err.Error(), k) {
			t.Errorf("%s=%s: %v", k, env[k], err)
		}
	}
}
