package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http/httptest"
	"net/netip"
	"overwatch"
	"overwatch/app"
	"overwatch/apptest"
	"overwatch/jobs"
	"overwatch/read"
	"overwatch/write"
	"overwatch/write/outbound"
	"overwatch/write/outbound/outboundtest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// leaks are what an outbound error must not show a user: the resolver's
// answers and address (the fake DNS listens on 127.0.0.1), the addresses
// dialled, the Go error's wording.
var leaks = []string{"lookup", "no such host", "127.0.0.1:", "10.0.0.7", "dial tcp", "refused to connect", "Post \""}

func noLeak(t *testing.T, what, text string) {
	t.Helper()
	for _, l := range leaks {
		if strings.Contains(text, l) {
			t.Errorf("%s shows %q: %s", what, l, text)
		}
	}
}

// Registration resolves the URL's host name: a name that resolves to a
// private address, or not at all, is refused with 400 and one message that
// says nothing of what it resolved to; a name resolving into the tests'
// OVERWATCH_OUTBOUND_ALLOW is accepted. The chat test and the delivery log
// give generic reasons, never the resolver's address or answers (those go
// to the server's log).
func TestWebhookOutboundErrorsAreGeneric(t *testing.T) {
	ip := netip.MustParseAddr
	outboundtest.FakeDNS(t, map[string][][]netip.Addr{
		"hooks.private.test":  {{ip("10.0.0.7")}},
		"hooks.loopback.test": {{ip("127.0.0.1")}},
		// Resolves at registration, then no longer (a lapsed domain).
		"hooks.lapsed.test": {{ip("127.0.0.1")}, {}},
	})
	s := apptest.StartServer(t, map[string]string{"OVERWATCH_OUTBOUND_ALLOW": "127.0.0.0/8"})
	pro, account := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	do, expect := s.Caller(t, apptest.FreshIP()), apptest.Expecter(t)
	rcv := &receiver{}
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	port := strconv.Itoa(srv.Listener.Addr().(*net.TCPAddr).Port)

	// Registration.
	for _, host := range []string{"hooks.private.test", "hooks.unknown.test"} {
		r := do(pro, "POST", "/v1/webhooks", `{"url":"https://`+host+`/hook","event_types":["dark_fleet"]}`)
		expect(r, 400, "url: destination not allowed")
		noLeak(t, "registration of "+host, string(r.Body))
	}
	expect(do(pro, "POST", "/v1/webhooks", `{"url":"http://hooks.loopback.test:`+port+`/hook","event_types":["dark_fleet"]}`), 201, `"webhook"`)
	r := do(pro, "POST", "/v1/webhooks", `{"url":"http://hooks.lapsed.test:`+port+`/hook","event_types":["dark_fleet"]}`)
	expect(r, 201, `"webhook"`)
	var lapsed write.CreatedWebhook
	apptest.MustUnmarshal(t, r.Body, &struct{ Webhook *write.CreatedWebhook }{&lapsed})
	if !strings.Contains(s.Logs.String(), "10.0.0.7") {
		t.Errorf("the refusal's detail is not in the server's log")
	}

	// The chat test.
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedURL := "http://" + closed.Addr().String() + "/"
	closed.Close()
	for url, want := range map[string]string{
		"https://hooks.private.test/chat": "url refused: destination not allowed",
		"https://hooks.unknown.test/chat": "the message was not delivered: connection failed",
		closedURL:                         "the message was not delivered: connection failed",
		"https://10.0.0.7/chat":           "url refused: destination not allowed",
	} {
		r := do(pro, "POST", "/v1/webhooks/slack-test", `{"url":"`+url+`"}`)
		var got struct {
			Success bool
			Message string
		}
		apptest.MustUnmarshal(t, r.Body, &got)
		if r.StatusCode != 200 || got.Success || got.Message != want {
			t.Errorf("chat test of %s: %d %s, want %q", url, r.StatusCode, r.Body, want)
		}
	}

	// A delivery to the lapsed name: its attempt's error in the log is the
	// generic reason.
	ctx := context.Background()
	eventID := fmt.Sprintf("evt_lapsed_%d", time.Now().UnixNano())
	if n, err := s.Pg.EnqueueEvent(ctx, account, "dark_fleet", eventID, []byte(`{}`)); err != nil || n != 2 {
		t.Fatalf("enqueue: %d %v", n, err)
	}
	client := outbound.New(outbound.Options{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, AllowHTTP: true})
	if _, err := jobs.DeliverDue(ctx, s.Pg, app.NewWebhookPoster(client), time.Now, 100); err != nil {
		t.Fatal(err)
	}
	var log struct{ Deliveries []read.DeliveryView }
	r = do(pro, "GET", "/v1/webhooks/"+strconv.FormatInt(lapsed.ID, 10)+"/deliveries", "")
	apptest.MustUnmarshal(t, r.Body, &log)
	var attempts []struct{ Error string }
	if len(log.Deliveries) == 1 {
		_ = json.Unmarshal(log.Deliveries[0].AttemptList, &attempts)
	}
	if len(attempts) != 1 || attempts[0].Error != outbound.ReasonConnection {
		t.Errorf("the lapsed name's attempt: %s", r.Body)
	}
	noLeak(t, "the delivery log", string(r.Body))
	rcv.mu.Lock()
	defer rcv.mu.Unlock()
	if rcv.calls != 1 {
		t.Errorf("the receiver got %d deliveries, want the loopback name's one", rcv.calls)
	}
}
