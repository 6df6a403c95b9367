package chtest

import (
	"io"
	"net"
	"sync"
	"testing"
)

// Proxy forwards a local port to a server. Cut closes it and every
// connection through it, as a network partition would; Restore listens on
// the same port again.
type Proxy struct {
	Addr   string
	target string
	mu     sync.Mutex
	ln     net.Listener
	conns  map[net.Conn]bool
}

// NewProxy starts a proxy to target (host:port); it is cut at cleanup.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	p := &Proxy{target: target, conns: map[net.Conn]bool{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.Addr = ln.Addr().String()
	p.serve(ln)
	t.Cleanup(p.Cut)
	return p
}

func (p *Proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", p.target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns[c], p.conns[up] = true, true
			p.mu.Unlock()
			go func() { io.Copy(up, c); up.Close() }() //nolint:errcheck
			go func() { io.Copy(c, up); c.Close() }()  //nolint:errcheck
		}
	}()
}

// Cut stops forwarding and closes every open connection.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
	}
	p.conns = map[net.Conn]bool{}
}

// Restore forwards again on the same port.
func (p *Proxy) Restore(t testing.TB) {
	t.Helper()
	ln, err := net.Listen("tcp", p.Addr)
	if err != nil {
		t.Fatal(err)
	}
	p.serve(ln)
}
