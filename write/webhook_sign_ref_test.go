package write

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The Standard Webhooks reference vector and verification cases, from the
// specification's own Go library: github.com/standard-webhooks/standard-webhooks,
// libraries/go/webhook_test.go (TestWebhookSign for the vector; TestWebhook
// for the cases: several signatures including other versions, a timestamp
// outside the tolerance either way, a missing header). A receiver using any
// of that repository's libraries verifies what SignWebhook produces.
const (
	refSecret    = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	refID        = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	refTimestamp = 1614265330
	refBody      = `{"test": 2432232314}`
	refSignature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
	refOther     = "v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc="
)

func TestWebhookReferenceCases(t *testing.T) {
	t.Parallel()
	ts := time.Unix(refTimestamp, 0)
	got, err := SignWebhook(refSecret, refID, ts, []byte(refBody))
	if err != nil || got != refSignature {
		t.Fatalf("the reference vector: %q %v", got, err)
	}
	// The reference library accepts the secret without its prefix too.
	if bare, err := SignWebhook(strings.TrimPrefix(refSecret, "whsec_"), refID, ts, []byte(refBody)); err != nil || bare != refSignature {
		t.Errorf("the secret without whsec_: %q %v", bare, err)
	}
	stamp := strconv.Itoa(refTimestamp)
	for name, c := range map[string]struct {
		sigs, stamp string
		at          time.Time
		ok          bool
	}{
		"valid":                         {refSignature, stamp, ts, true},
		"valid, just inside tolerance":  {refSignature, stamp, ts.Add(SignatureTolerance), true},
		"valid, early clock":            {refSignature, stamp, ts.Add(-SignatureTolerance), true},
		"several, one valid":            {strings.Join([]string{refOther, "v2," + refOther[3:], refSignature, refOther}, " "), stamp, ts, true},
		"invalid signature":             {refOther, stamp, ts, false},
		"the right digest, v2":          {"v2," + refSignature[3:], stamp, ts, false},
		"the digest without a version":  {refSignature[3:], stamp, ts, false},
		"old timestamp":                 {refSignature, stamp, ts.Add(SignatureTolerance + time.Second), false},
		"new timestamp":                 {refSignature, stamp, ts.Add(-SignatureTolerance - time.Second), false},
		"missing signature":             {"", stamp, ts, false},
		"missing timestamp":             {refSignature, "", ts, false},
		"signature for another stamp":   {refSignature, strconv.Itoa(refTimestamp + 1), ts, false},
		"comma-separated, not a space":  {refOther + "," + refSignature, stamp, ts, false},
		"timestamp in milliseconds":     {refSignature, stamp + "000", ts, false},
		"signature with trailing bytes": {refSignature + "=", stamp, ts, false},
	} {
		err := VerifyWebhook(refSecret, refID, c.stamp, c.sigs, []byte(refBody), c.at)
		if (err == nil) != c.ok {
			t.Errorf("%s: %v, want ok=%t", name, err, c.ok)
		}
	}
	if err := VerifyWebhook("whsec_not base64!", refID, stamp, refSignature, []byte(refBody), ts); err == nil {
		t.Error("a malformed secret verified")
	}
	// Secrets are new every time and usable.
	a, _ := NewWebhookSecret()
	b, _ := NewWebhookSecret()
	if a == b || !strings.HasPrefix(a, "whsec_") {
		t.Errorf("secrets %q %q", a, b)
	}
	sig, err := SignWebhook(a, "evt_1", ts, []byte("{}"))
	if err != nil || VerifyWebhook(a, "evt_1", stamp, sig, []byte("{}"), ts) != nil || VerifyWebhook(b, "evt_1", stamp, sig, []byte("{}"), ts) == nil {
		t.Errorf("a new secret signs and only it verifies: %q %v", sig, err)
	}
}

// FuzzVerifyWebhook: what is signed verifies (within the tolerance) and
// stops verifying when the id, the body or the secret differs; nothing
// panics on arbitrary headers.
func FuzzVerifyWebhook(f *testing.F) {
	f.Add(refID, int64(refTimestamp), []byte(refBody), refSignature, "1614265330")
	f.Add("", int64(0), []byte{}, "v1,", "-1")
	f.Add("a.b", int64(-1), []byte("."), "v1,"+strings.Repeat("A", 44)+" v1,x", "99999999999999999999")
	now := time.Unix(refTimestamp, 0)
	f.Fuzz(func(t *testing.T, id string, sec int64, body []byte, sigs, stamp string) {
		// Arbitrary headers: an error or nil, never a panic; nil only for
		// a header that holds the true signature of its stamp.
		if VerifyWebhook(refSecret, id, stamp, sigs, body, now) == nil {
			n, err := strconv.ParseInt(stamp, 10, 64)
			want, _ := SignWebhook(refSecret, id, time.Unix(n, 0), body)
			if err != nil || !slices.Contains(strings.Fields(sigs), want) {
				t.Fatalf("verified %q %q %q %q", id, stamp, sigs, body)
			}
		}
		// A signature made now verifies, and only for its own message.
		ts := now.Add(time.Duration(sec%int64(SignatureTolerance/time.Second)) * time.Second)
		sig, err := SignWebhook(refSecret, id, ts, body)
		if err != nil {
			t.Fatal(err)
		}
		st := strconv.FormatInt(ts.Unix(), 10)
		if err := VerifyWebhook(refSecret, id, st, sig, body, now); err != nil {
			t.Fatalf("own signature: %v", err)
		}
		if VerifyWebhook(refSecret, id+"x", st, sig, body, now) == nil {
			t.Fatal("verified for another id")
		}
		if VerifyWebhook(refSecret, id, st, sig, append(append([]byte(nil), body...), 'x'), now) == nil {
			t.Fatal("verified for another body")
		}
		if VerifyWebhook("whsec_"+strings.Repeat("A", 32), id, st, sig, body, now) == nil {
			t.Fatal("verified with another secret")
		}
	})
}
