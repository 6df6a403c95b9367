package outbound

import (
	"errors"
	"net/netip"
	"strconv"
	"strings"
)

// numericIPv4 reads host as inet_aton and the WHATWG URL parser read an
// IPv4 address, which resolvers and HTTP clients accept beside the dotted
// quad: one to four parts separated by dots (one trailing dot ignored),
// each decimal, octal (a leading 0) or hexadecimal (0x), the last filling
// the bytes the others leave: 2130706433, 0x7f000001, 017700000001, 127.1,
// 0x7f.1 and 127.0.1 are all 127.0.0.1. numeric is whether the host ends
// in a numeric part, which no DNS name does (top-level domains are not
// numbers): such a host is an address or nothing, and ok says whether it
// is a valid one.
func numericIPv4(host string) (addr netip.Addr, numeric, ok bool) {
	host = strings.TrimSuffix(host, ".")
	if host == "" || strings.ContainsAny(host, ":[]") {
		return netip.Addr{}, false, false
	}
	parts := strings.Split(host, ".")
	last, lastOK := ipv4Part(parts[len(parts)-1])
	if !lastOK {
		return netip.Addr{}, false, false
	}
	if len(parts) > 4 || last >= 1<<(8*(5-len(parts))) {
		return netip.Addr{}, true, false
	}
	var v uint64
	for i, p := range parts[:len(parts)-1] {
		n, ok := ipv4Part(p)
		if !ok || n > 255 {
			return netip.Addr{}, true, false
		}
		v |= n << (8 * (3 - i))
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true, true
}

// ipv4Part reads one part of a numeric IPv4 host: 0x (hexadecimal, its
// digits possibly none), a leading 0 (octal) or decimal digits; whether
// it is a number at all (one too large for any part reads as 2^32).
func ipv4Part(p string) (uint64, bool) {
	base := 10
	switch {
	case len(p) >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'):
		base, p = 16, p[2:]
		if p == "" {
			return 0, true
		}
	case len(p) > 1 && p[0] == '0':
		base, p = 8, p[1:]
	case p == "":
		return 0, false
	}
	n, err := strconv.ParseUint(p, base, 64)
	if errors.Is(err, strconv.ErrRange) {
		return 1 << 32, true // a number, too large for any part
	}
	return n, err == nil
}
