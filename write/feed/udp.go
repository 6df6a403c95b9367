package feed

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"time"

	"overwatch"
)

// UDP listens for NMEA sentences in datagrams, what AIS receivers send
// (one or more lines per datagram). A datagram cannot wait, so when the
// sink is full its reports are dropped and counted.
type UDP struct {
	Addr   string         // listen address, e.g. ":10110"
	Conn   net.PacketConn // if set, used instead of listening on Addr
	Source overwatch.Source
	Sink   Sink
	Log    *slog.Logger
	Now    func() time.Time
}

// Name says what the feed is, for logs.
func (f *UDP) Name() string { return string(f.Source) + " udp://" + f.Addr }

// Run reads datagrams until ctx ends.
func (f *UDP) Run(ctx context.Context) error {
	conn := f.Conn
	if conn == nil {
		var err error
		if conn, err = net.ListenPacket("udp", f.Addr); err != nil {
			return err
		}
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	logger(f.Log).Info("feed listening", "feed", f.Name(), "addr", conn.LocalAddr().String())
	n := newNMEA(f.Source, f.Sink, f.Now, false)
	defer n.count()
	buf := make([]byte, 65536)
	for packets := 1; ; packets++ {
		size, _, err := conn.ReadFrom(buf)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		for _, line := range bytes.Split(buf[:size], []byte{'\n'}) {
			if len(bytes.TrimSpace(line)) > 0 {
				n.line(ctx, line) //nolint:errcheck // TrySubmit: never blocks, never fails
			}
		}
		if packets%1024 == 0 {
			n.count()
		}
	}
}
