package write

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"
)

// Standard Webhooks signing (https://www.standardwebhooks.com): each
// delivery carries the headers webhook-id (the event's id, the same on
// every retry: receivers de-duplicate by it), webhook-timestamp (Unix
// seconds of the attempt) and webhook-signature ("v1,<base64 HMAC-SHA256
// of "<id>.<timestamp>.<body>">), keyed with the webhook's secret
// "whsec_<base64 key>".

// SignatureTolerance is how far a receiver accepts a timestamp from now.
const SignatureTolerance = 5 * time.Minute

// NewWebhookSecret returns a new signing secret: "whsec_" and 24 random
// bytes in base64.
func NewWebhookSecret() (string, error) {
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return "whsec_" + base64.StdEncoding.EncodeToString(b[:]), nil
}

func webhookKey(secret string) ([]byte, error) {
	return base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
}

// SignWebhook is the webhook-signature value of a delivery.
func SignWebhook(secret, id string, ts time.Time, body []byte) (string, error) {
	key, err := webhookKey(secret)
	if err != nil {
		return "", errors.New("webhook secret must be whsec_<base64>")
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id + "." + strconv.FormatInt(ts.Unix(), 10) + "."))
	m.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil)), nil
}

// VerifyWebhook checks a delivery as a receiver does: a timestamp within
// SignatureTolerance of now and one of the space-separated v1 signatures
// equal to the expected one.
func VerifyWebhook(secret, id, timestamp, signatures string, body []byte, now time.Time) error {
	sec, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return errors.New("webhook-timestamp is not a Unix time")
	}
	ts := time.Unix(sec, 0)
	if d := now.Sub(ts); d > SignatureTolerance || d < -SignatureTolerance {
		return errors.New("webhook-timestamp is too far from now")
	}
	want, err := SignWebhook(secret, id, ts, body)
	if err != nil {
		return err
	}
	for _, s := range strings.Fields(signatures) {
		if hmac.Equal([]byte(s), []byte(want)) {
			return nil
		}
	}
	return errors.New("no webhook-signature matches")
}
