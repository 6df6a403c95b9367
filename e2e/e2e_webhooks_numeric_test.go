package e2e

import (
	"overwatch"
	"overwatch/apptest"
	"strings"
	"testing"
)

// A webhook URL whose host is an IPv4 address in one of the numeric forms
// resolvers accept besides the dotted quad (2130706433, 0x7f000001,
// 017700000001, 127.1, 0x7f.1, 127.0.1 all mean 127.0.0.1) is refused as
// the address it means, with the reason the dotted quad would get, and
// never sent to the resolver; one that means a public address is refused
// too, to be written as a dotted quad.
func TestWebhookNumericHostsAreAddresses(t *testing.T) {
	s := apptest.StartServer(t, nil)
	key, _ := s.NewKey(t, apptest.UniqueEmail(t), overwatch.PlanPro)
	do, expect := s.Caller(t, apptest.FreshIP()), apptest.Expecter(t)
	for host, reason := range map[string]string{
		"0x7f000001": "refused to connect to 127.0.0.1: a loopback address", "2130706433": "127.0.0.1: a loopback address",
		"017700000001": "127.0.0.1: a loopback address", "127.1": "127.0.0.1: a loopback address",
		"0x7f.1": "127.0.0.1: a loopback address", "127.0.1": "127.0.0.1: a loopback address",
		"0x7f000001.": "127.0.0.1: a loopback address", "0177.0.0.1:8443": "127.0.0.1: a loopback address",
		"10.1": "10.0.0.1: a private address", "0xc0a80001": "192.168.0.1: a private address",
		"0xa9.0xfea9fe": "169.254.169.254: a link-local address", "0": "0.0.0.0: an unspecified address",
		"134744072": "the IPv4 address 8.8.8.8 in a non-standard form: write it as 8.8.8.8",
		"1.2.3.256": "ends in a number but is not an IPv4 address",
	} {
		r := do(key, "POST", "/v1/webhooks", `{"url":"https://`+host+`/hook","event_types":["dark_fleet"]}`)
		if r.StatusCode != 400 || !strings.Contains(string(r.Body), "url: ") || !strings.Contains(string(r.Body), reason) {
			t.Errorf("%s: %d %s, want 400 with %q", host, r.StatusCode, r.Body, reason)
		}
	}
	if strings.Contains(s.Logs.String(), "outbound URL refused") {
		t.Errorf("a numeric host was looked up:\n%s", s.Logs.String())
	}
	expect(do(key, "GET", "/v1/webhooks", ""), 200, `{"webhooks":[]}`)
}
