// Package stripetest starts stripe-mock (Stripe's own mock of its API, a
// Go module the Makefile installs under .data/bin) on a free loopback port
// for a test, and stops it when the test ends.
package stripetest

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// SecretKey is a test-mode secret key stripe-mock accepts.
const SecretKey = "sk_test_overwatch"

// Start runs stripe-mock and returns its base URL. Without the binary the
// test is skipped, or fails when CI=true (`make test` installs it).
func Start(t *testing.T) string {
	t.Helper()
	bin := find()
	if bin == "" {
		msg := "stripe-mock not found (make .data/bin/stripe-mock, or set STRIPE_MOCK_BIN)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin, "-http-addr", addr)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	url := "http://" + addr
	deadline := time.Now().Add(20 * time.Second)
	for {
		req, _ := http.NewRequest(http.MethodGet, url+"/v1/customers", nil)
		req.Header.Set("Authorization", "Bearer "+SecretKey)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return url
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("stripe-mock at %s did not answer within 20 s (%v)", addr, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// find locates the binary: STRIPE_MOCK_BIN, .data/bin above the working
// directory, or the PATH.
func find() string {
	if b := os.Getenv("STRIPE_MOCK_BIN"); b != "" {
		if _, err := os.Stat(b); err == nil {
			return b
		}
	}
	dir, _ := os.Getwd()
	for range 6 {
		b := filepath.Join(dir, ".data", "bin", "stripe-mock")
		if _, err := os.Stat(b); err == nil {
			return b
		}
		dir = filepath.Dir(dir)
	}
	if b, err := exec.LookPath("stripe-mock"); err == nil {
		return b
	}
	return ""
}

// Event is a checkout.session.completed event of a paid session for the
// account and plan.
func Event(id string, accountID int64, plan string) []byte {
	return SessionEvent(id, "checkout.session.completed", accountID, plan, "paid")
}

// SessionEvent is a checkout session event of the given type (completed,
// async_payment_succeeded, ...) whose session's payment_status is status
// ("paid", or "unpaid" for a delayed payment method).
func SessionEvent(id, eventType string, accountID int64, plan, status string) []byte {
	return []byte(fmt.Sprintf(`{"id":%q,"object":"event","type":%q,"data":{"object":{"id":"cs_test_1","object":"checkout.session","client_reference_id":"%d","metadata":{"plan":%q,"account_id":"%d"},"payment_status":%q,"mode":"subscription"}}}`,
		id, eventType, accountID, plan, accountID, status))
}
