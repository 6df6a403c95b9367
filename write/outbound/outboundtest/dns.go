// Package outboundtest is the test kit of outbound requests: a DNS server
// that answers what the test says, installed as the process's default
// resolver for the test (names resolving to refused addresses, DNS
// rebinding, names that stop resolving).
package outboundtest

import (
	"context"
	"encoding/binary"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// FakeDNS answers A and AAAA queries from answers (name -> addresses, by
// the number of the query for that name and type: the last list repeats),
// and installs itself as the default resolver for the test, so that a name
// other than localhost resolves to what the test says, and can change
// between two resolutions (DNS rebinding). Names it does not know are
// NXDOMAIN; /etc/hosts still answers first. The resolver is the process's:
// a test using it must not run in parallel with others.
func FakeDNS(t *testing.T, answers map[string][][]netip.Addr) {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	seen := map[string]int{}
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			q := buf[:n]
			// The question: labels from byte 12 to a zero length, then type
			// and class.
			i := 12
			var labels []string
			for i < len(q) && q[i] != 0 && i+1+int(q[i]) <= len(q) {
				labels = append(labels, strings.ToLower(string(q[i+1:i+1+int(q[i])])))
				i += 1 + int(q[i])
			}
			if len(q) < i+5 || binary.BigEndian.Uint16(q[4:]) != 1 {
				continue
			}
			name, qtype := strings.Join(labels, "."), binary.BigEndian.Uint16(q[i+1:])
			mu.Lock()
			key := name + "/" + strconv.Itoa(int(qtype))
			k := seen[key]
			seen[key]++
			mu.Unlock()
			var addrs []netip.Addr
			lists, known := answers[name]
			if known && len(lists) > 0 {
				addrs = lists[min(k, len(lists)-1)]
			}
			resp := append([]byte(nil), q[:i+5]...)
			flags := uint16(0x8180) // response, recursion desired and available
			if !known {
				flags |= 3 // NXDOMAIN
			}
			binary.BigEndian.PutUint16(resp[2:], flags)
			binary.BigEndian.PutUint16(resp[8:], 0)  // no authority
			binary.BigEndian.PutUint16(resp[10:], 0) // no additional (the query's EDNS record is dropped)
			count := 0
			for _, a := range addrs {
				if qtype == 1 && !a.Is4() || qtype == 28 && a.Is4() || qtype != 1 && qtype != 28 {
					continue
				}
				raw := a.AsSlice()
				resp = append(resp, 0xc0, 12) // the name: a pointer to the question's
				resp = binary.BigEndian.AppendUint16(resp, qtype)
				resp = binary.BigEndian.AppendUint16(resp, 1) // IN
				resp = binary.BigEndian.AppendUint32(resp, 0) // TTL 0: never cached
				resp = binary.BigEndian.AppendUint16(resp, uint16(len(raw)))
				resp = append(resp, raw...)
				count++
			}
			binary.BigEndian.PutUint16(resp[6:], uint16(count))
			_, _ = pc.WriteTo(resp, from)
		}
	}()
	server := pc.LocalAddr().String()
	saved := net.DefaultResolver
	net.DefaultResolver = &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", server)
	}}
	t.Cleanup(func() {
		net.DefaultResolver = saved
		pc.Close()
	})
}
