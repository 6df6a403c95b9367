package write

import (
	"testing"
	"time"
)

// The Standard Webhooks reference vector: secret, id, timestamp, body and
// signature as in the specification's Go library test
// (github.com/standard-webhooks/standard-webhooks,
// libraries/go/webhook_test.go, TestWebhookSign; the same values are Svix's
// "testSignFunctionWorks"): a receiver's library must verify what we send.
func TestSignWebhookVector(t *testing.T) {
	t.Parallel()
	const secret, id = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek"
	ts := time.Unix(1614265330, 0)
	body := []byte(`{"test": 2432232314}`)
	got, err := SignWebhook(secret, id, ts, body)
	if err != nil || got != "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=" {
		t.Fatalf("signature %q %v", got, err)
	}
	if err := VerifyWebhook(secret, id, "1614265330", "v1,bm9wZQ== "+got, body, ts.Add(time.Minute)); err != nil {
		t.Errorf("verify: %v", err)
	}
	for name, c := range map[string]struct {
		id, ts string
		body   string
		at     time.Time
	}{
		"tampered body": {id, "1614265330", `{"test": 1}`, ts},
		"other id":      {"msg_other", "1614265330", string(body), ts},
		"stale":         {id, "1614265330", string(body), ts.Add(10 * time.Minute)},
		"bad timestamp": {id, "soon", string(body), ts},
	} {
		if err := VerifyWebhook(secret, c.id, c.ts, got, []byte(c.body), c.at); err == nil {
			t.Errorf("%s: verified", name)
		}
	}
	s, err := NewWebhookSecret()
	if err != nil || len(s) != len("whsec_")+32 {
		t.Errorf("new secret %q %v", s, err)
	}
}
