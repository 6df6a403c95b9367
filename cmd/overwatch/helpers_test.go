package main

import (
	"encoding/json"
	"net"
	"net/netip"
	"os"
)

func netTCPAddr(a netip.Addr) *net.TCPAddr {
	return net.TCPAddrFromAddrPort(netip.AddrPortFrom(a, 40000))
}

func readFile(t interface {
	Helper()
	Fatal(...any)
}, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustUnmarshal(t interface {
	Helper()
	Fatalf(string, ...any)
}, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
}
