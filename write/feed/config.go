package feed

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"time"

	"overwatch"
)

// Feed is a configured source.
type Feed interface {
	Name() string
	Run(ctx context.Context) error
}

// Parse reads one feed of OVERWATCH_FEEDS, "<provider>=<url>", where the
// provider is aishub, aisstream, satellite or spire, and the URL's scheme
// picks the protocol:
//
//	tcp://host:port                     raw NMEA over TCP
//	udp://[host]:port                   raw NMEA in datagrams (listen address)
//	wss://stream.aisstream.io/v0/stream?key=KEY&bbox=lat1,lon1,lat2,lon2[|...]&mmsi=123456789,...
//	https://data.aishub.net/ws.php?username=USER&format=0|1&interval=1m
func Parse(spec string, sink Sink, log *slog.Logger) (Feed, error) {
	provider, raw, ok := strings.Cut(strings.TrimSpace(spec), "=")
	if !ok {
		return nil, fmt.Errorf("feed %q: want <provider>=<url>", spec)
	}
	src, ok := overwatch.ParseSource(provider)
	if !ok {
		return nil, fmt.Errorf("feed %q: provider must be aishub, aisstream, satellite or spire", spec)
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return nil, fmt.Errorf("feed %q: bad URL", spec)
	}
	q := u.Query()
	switch u.Scheme {
	case "tcp":
		if u.Host == "" {
			return nil, fmt.Errorf("feed %q: tcp://host:port", spec)
		}
		return &TCP{Addr: u.Host, Source: src, Sink: sink, Log: log}, nil
	case "udp":
		return &UDP{Addr: u.Host, Source: src, Sink: sink, Log: log}, nil
	case "ws", "wss":
		f := &AISStream{APIKey: q.Get("key"), Source: src, Sink: sink, Log: log}
		if f.APIKey == "" {
			return nil, fmt.Errorf("feed %q: the aisstream URL needs key=<API key>", spec)
		}
		if b := q.Get("bbox"); b != "" {
			for _, box := range strings.Split(b, "|") {
				var v [4]float64
				parts := strings.Split(box, ",")
				if len(parts) != 4 {
					return nil, fmt.Errorf("feed %q: bbox is lat1,lon1,lat2,lon2", spec)
				}
				for i, p := range parts {
					if v[i], err = strconv.ParseFloat(strings.TrimSpace(p), 64); err != nil {
						return nil, fmt.Errorf("feed %q: bbox is lat1,lon1,lat2,lon2", spec)
					}
				}
				f.BoundingBoxes = append(f.BoundingBoxes, [2][2]float64{{v[0], v[1]}, {v[2], v[3]}})
			}
		}
		if m := q.Get("mmsi"); m != "" {
			f.MMSIs = strings.Split(m, ",")
		}
		q.Del("key")
		q.Del("bbox")
		q.Del("mmsi")
		u.RawQuery = q.Encode()
		f.URL = u.String()
		return f, nil
	case "http", "https":
		f := &AISHub{Username: q.Get("username"), Source: src, Sink: sink, Log: log, Interval: AISHubMinInterval}
		if f.Username == "" {
			return nil, fmt.Errorf("feed %q: the AISHub URL needs username=<user>", spec)
		}
		if v := q.Get("format"); v != "" {
			if f.Format, err = strconv.Atoi(v); err != nil || (f.Format != 0 && f.Format != 1) {
				return nil, fmt.Errorf("feed %q: format is 0 or 1", spec)
			}
		}
		if v := q.Get("interval"); v != "" {
			if f.Interval, err = time.ParseDuration(v); err != nil || f.Interval < AISHubMinInterval {
				return nil, fmt.Errorf("feed %q: interval is a duration of at least 1m (AISHub allows one call per minute)", spec)
			}
		}
		for _, k := range []string{"username", "format", "interval", "output", "compress"} {
			q.Del(k)
		}
		u.RawQuery = q.Encode()
		f.URL = u.String()
		return f, nil
	}
	return nil, fmt.Errorf("feed %q: scheme must be tcp, udp, ws(s) or http(s)", spec)
}

// ParseAll reads a whitespace-separated list of feeds; now, when not nil,
// is the clock their reports are received by (the service's).
func ParseAll(specs string, sink Sink, log *slog.Logger, now func() time.Time) ([]Feed, error) {
	var feeds []Feed
	for _, spec := range strings.FieldsFunc(specs, func(r rune) bool { return r == ' ' || r == '\n' || r == '\t' }) {
		f, err := Parse(spec, sink, log)
		if err != nil {
			return nil, err
		}
		switch f := f.(type) {
		case *TCP:
			f.Now = now
		case *UDP:
			f.Now = now
		case *AISStream:
			f.Now = now
		case *AISHub:
			f.Now = now
		}
		feeds = append(feeds, f)
	}
	return feeds, nil
}
