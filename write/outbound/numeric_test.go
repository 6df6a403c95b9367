package outbound

import (
	"errors"
	"strings"
	"testing"
)

// Every form inet_aton reads as an IPv4 address is read as that address;
// a host ending in a number that is none of them is numeric but invalid;
// names are not numeric.
func TestNumericIPv4(t *testing.T) {
	for host, want := range map[string]string{
		"2130706433": "127.0.0.1", "0x7f000001": "127.0.0.1", "0X7F000001": "127.0.0.1", "017700000001": "127.0.0.1",
		"127.1": "127.0.0.1", "127.0.1": "127.0.0.1", "0x7f.1": "127.0.0.1", "0177.0.0.01": "127.0.0.1", "127.1.": "127.0.0.1",
		"0x7f.0x0.0x0.0x1": "127.0.0.1", "127.000.000.001": "127.0.0.1", "0": "0.0.0.0", "0x": "0.0.0.0",
		"10.1": "10.0.0.1", "0xa9.0xfea9fe": "169.254.169.254", "0xa9.254.43518": "169.254.169.254", "134744072": "8.8.8.8",
		"4294967295": "255.255.255.255", "1.2.3.4": "1.2.3.4",
		// numeric, not an address
		"4294967296": "invalid", "256.1": "invalid", "1.2.3.4.5": "invalid", "08.1": "invalid", "1.2.65536": "invalid",
		"1..1": "invalid", "0xa9fe.0xa9fe": "invalid", "99999999999999999999999": "invalid", "x.1": "invalid", "0x1g.1": "invalid", "1.2.3.256": "invalid",
		// names
		"example.com": "", "hooks.slack.com": "", "0x7f.example": "", "1.2.3.4a": "", "localhost": "", "": "", "[::1]": "",
	} {
		a, numeric, ok := numericIPv4(host)
		got := ""
		switch {
		case numeric && ok:
			got = a.String()
		case numeric:
			got = "invalid"
		case ok:
			got = "ok without numeric"
		}
		if got != want {
			t.Errorf("%q: %q, want %q", host, got, want)
		}
	}
}

// Check refuses a URL whose host is an IPv4 address in a numeric form as
// the address it means, without a lookup: an address that may not be
// reached with its reason, one that may be with the dotted quad to write.
func TestCheckNumericHosts(t *testing.T) {
	c := New(Options{})
	for raw, want := range map[string]string{
		"https://0x7f000001/hook":    "loopback",
		"https://2130706433/hook":    "loopback",
		"https://017700000001/hook":  "loopback",
		"https://127.1/hook":         "loopback",
		"https://0x7f.1:8443/hook":   "loopback",
		"https://127.0.1/hook":       "loopback",
		"https://0xa9.0xfea9fe/meta": "link-local",
		"https://10.1/hook":          "private",
		"https://0/hook":             "unspecified",
		"https://134744072/hook":     "write it as 8.8.8.8",
		"https://256.1/hook":         "not an IPv4 address",
		"https://example.0x1/hook":   "not an IPv4 address",
	} {
		_, err := c.Check(raw)
		var refused *RefusedError
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", raw, err, want)
		}
		if want != "write it as 8.8.8.8" && !strings.Contains(want, "IPv4") && !errors.As(err, &refused) {
			t.Errorf("%s: %v is not a refused address", raw, err)
		}
	}
}
