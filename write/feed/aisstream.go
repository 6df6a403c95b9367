package feed

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/coder/websocket"

	"overwatch"
	"overwatch/write/ingest"
)

// AISStreamURL is the aisstream.io WebSocket endpoint.
const AISStreamURL = "wss://stream.aisstream.io/v0/stream"

// AISStream subscribes to the aisstream.io WebSocket: it sends the
// subscription (API key, bounding boxes, MMSI filter) right after
// connecting, well within the 3 s the service allows, then reads JSON
// messages (the envelope {MessageType, MetaData, Message{<Type>: {...}}})
// and reconnects with backoff when the stream ends.
type AISStream struct {
	URL           string
	APIKey        string
	BoundingBoxes [][2][2]float64 // [[lat1, lon1], [lat2, lon2]] corners
	MMSIs         []string        // at most 50 nine-digit MMSIs; empty: all
	Source        overwatch.Source
	Sink          Sink
	Log           *slog.Logger
	Now           func() time.Time
	MinBackoff    time.Duration
	MaxBackoff    time.Duration
}

// Name says what the feed is, for logs.
func (f *AISStream) Name() string { return string(f.Source) + " " + f.URL }

type aisstreamSubscription struct {
	APIKey          string          `json:"APIKey"`
	BoundingBoxes   [][2][2]float64 `json:"BoundingBoxes"`
	FiltersShipMMSI []string        `json:"FiltersShipMMSI,omitempty"`
}

// Run reads until ctx ends.
func (f *AISStream) Run(ctx context.Context) error {
	if f.URL == "" {
		f.URL = AISStreamURL
	}
	if len(f.BoundingBoxes) == 0 {
		f.BoundingBoxes = [][2][2]float64{{{-90, -180}, {90, 180}}}
	}
	maxWait := f.MaxBackoff
	if maxWait <= 0 {
		maxWait = time.Minute
	}
	b := newBackoff(f.MinBackoff, maxWait)
	for {
		n, err := f.session(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if n > 0 {
			b.reset()
		}
		logger(f.Log).Warn("feed disconnected; reconnecting", "feed", f.Name(), "messages", n, "err", err)
		if !b.wait(ctx) {
			return nil
		}
	}
}

func (f *AISStream) session(ctx context.Context) (int, error) {
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	conn, _, err := websocket.Dial(dctx, f.URL, nil)
	cancel()
	if err != nil {
		return 0, err
	}
	defer conn.CloseNow() //nolint:errcheck
	conn.SetReadLimit(1 << 20)
	sub, err := json.Marshal(aisstreamSubscription{APIKey: f.APIKey, BoundingBoxes: f.BoundingBoxes, FiltersShipMMSI: f.MMSIs})
	if err != nil {
		return 0, err
	}
	wctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	err = conn.Write(wctx, websocket.MessageText, sub)
	cancel()
	if err != nil {
		return 0, fmt.Errorf("subscribe: %w", err)
	}
	logger(f.Log).Info("feed subscribed", "feed", f.Name())
	now := f.Now
	if now == nil {
		now = time.Now
	}
	var count, decoded, invalid uint64
	defer func() { f.Sink.CountFeed(count, decoded, map[string]uint64{InvalidMessage: invalid}) }()
	for n := 0; ; n++ {
		_, data, err := conn.Read(ctx)
		if err != nil {
			return n, err
		}
		count++
		reports, err := ParseAISStream(data, f.Source, now())
		if err != nil {
			invalid++
			continue
		}
		for _, r := range reports {
			if err := f.Sink.Submit(ctx, r); err != nil {
				return n, err
			}
			decoded++
		}
		if count%1024 == 0 {
			f.Sink.CountFeed(count, decoded, map[string]uint64{InvalidMessage: invalid})
			count, decoded, invalid = 0, 0, 0
		}
	}
}

// aisstreamEnvelope is one message of the stream.
type aisstreamEnvelope struct {
	MessageType string `json:"MessageType"`
	MetaData    struct {
		MMSI    uint32 `json:"MMSI"`
		TimeUTC string `json:"time_utc"`
	} `json:"MetaData"`
	Message map[string]json.RawMessage `json:"Message"`
}

type aisstreamDimension struct{ A, B, C, D uint16 }

// aisstreamBody holds the fields of every message type this service uses.
type aisstreamBody struct {
	MessageID            uint8                                   `json:"MessageID"`
	UserID               uint32                                  `json:"UserID"`
	Valid                bool                                    `json:"Valid"`
	NavigationalStatus   *uint8                                  `json:"NavigationalStatus"`
	Sog                  *float64                                `json:"Sog"`
	Cog                  *float64                                `json:"Cog"`
	Latitude             *float64                                `json:"Latitude"`
	Longitude            *float64                                `json:"Longitude"`
	TrueHeading          *uint16                                 `json:"TrueHeading"`
	ImoNumber            uint32                                  `json:"ImoNumber"`
	CallSign             string                                  `json:"CallSign"`
	Name                 string                                  `json:"Name"`
	Type                 uint8                                   `json:"Type"`
	Dimension            *aisstreamDimension                     `json:"Dimension"`
	MaximumStaticDraught float64                                 `json:"MaximumStaticDraught"`
	Destination          string                                  `json:"Destination"`
	Eta                  *struct{ Month, Day, Hour, Minute int } `json:"Eta"`
	PartNumber           bool                                    `json:"PartNumber"`
	ReportA              *struct {
		Valid bool
		Name  string
	} `json:"ReportA"`
	ReportB *struct {
		Valid     bool
		ShipType  uint8
		CallSign  string
		Dimension aisstreamDimension
	} `json:"ReportB"`
}

// aisstreamTime is the layout of MetaData.time_utc, e.g.
// "2025-05-15 09:27:38.342017448 +0000 UTC".
const aisstreamTime = "2006-01-02 15:04:05.999999999 -0700 MST"

// ParseAISStream turns one aisstream.io message into reports. Types that
// describe no vessel give none; malformed JSON is an error.
func ParseAISStream(data []byte, src overwatch.Source, received time.Time) ([]ingest.Report, error) {
	var env aisstreamEnvelope
	if err := json.Unmarshal(data, &env); err != nil {
		return nil, err
	}
	if env.MessageType == "" {
		return nil, fmt.Errorf("aisstream: no MessageType")
	}
	raw, ok := env.Message[env.MessageType]
	if !ok {
		return nil, fmt.Errorf("aisstream: no %s body", env.MessageType)
	}
	var m aisstreamBody
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	r := ingest.Report{Source: src, MMSI: m.UserID, Type: m.MessageID, TS: received, ReceivedAt: received}
	if r.MMSI == 0 {
		r.MMSI = env.MetaData.MMSI
	}
	if t, err := time.Parse(aisstreamTime, env.MetaData.TimeUTC); err == nil {
		r.TS = t.UTC()
	}
	r.TS = r.TS.Truncate(time.Second)
	longRange := false
	switch env.MessageType {
	case "PositionReport", "StandardClassBPositionReport":
	case "LongRangeAisBroadcastMessage":
		longRange = true
	case "ExtendedClassBPositionReport":
		streamStatic(&r, &m)
	case "ShipStaticData":
		streamStatic(&r, &m)
		if m.ImoNumber != 0 {
			r.Has |= ingest.HasIMO
			r.IMO = overwatch.IMO(m.ImoNumber)
		}
		if m.MaximumStaticDraught > 0 {
			r.Has |= ingest.HasDraught
			r.Draught = m.MaximumStaticDraught
		}
		if d := strings.TrimSpace(strings.TrimRight(m.Destination, "@")); d != "" {
			r.Has |= ingest.HasDestination
			r.Destination = d
		}
		if m.Eta != nil {
			if eta, ok := ingest.ETAFrom(r.TS, m.Eta.Month, m.Eta.Day, m.Eta.Hour, m.Eta.Minute); ok {
				r.Has |= ingest.HasETA
				r.ETA = eta
			}
		}
	case "StaticDataReport":
		r.Type = 24
		if m.PartNumber && m.ReportB != nil && m.ReportB.Valid {
			r.Part = 1
			b := m.ReportB
			streamStatic(&r, &aisstreamBody{CallSign: b.CallSign, Type: b.ShipType, Dimension: &b.Dimension})
		} else if m.ReportA != nil && m.ReportA.Valid {
			streamStatic(&r, &aisstreamBody{Name: m.ReportA.Name})
		}
		return one(r), nil
	default:
		return nil, nil
	}
	if m.Latitude != nil && m.Longitude != nil {
		lat, lon := *m.Latitude, *m.Longitude
		if lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180 {
			r.Has |= ingest.HasPosition
			r.Lat, r.Lon = lat, lon
		}
	}
	sogNA, cogNA := 102.3, 360.0
	if longRange {
		sogNA, cogNA = 63, 511
	}
	if m.Sog != nil && *m.Sog >= 0 && *m.Sog < sogNA {
		r.Has |= ingest.HasSOG
		r.SOG = *m.Sog
	}
	if m.Cog != nil && *m.Cog >= 0 && *m.Cog < cogNA {
		r.Has |= ingest.HasCOG
		r.COG = *m.Cog
	}
	if m.TrueHeading != nil && *m.TrueHeading < 360 {
		r.Has |= ingest.HasHeading
		r.Heading = *m.TrueHeading
	}
	if m.NavigationalStatus != nil && *m.NavigationalStatus < 15 {
		r.Has |= ingest.HasNavStatus
		r.NavStatus = *m.NavigationalStatus
	}
	return one(r), nil
}

func one(r ingest.Report) []ingest.Report {
	if r.Has == 0 || r.MMSI == 0 {
		return nil
	}
	return []ingest.Report{r}
}

// streamStatic copies name, call sign, ship type and dimensions.
func streamStatic(r *ingest.Report, m *aisstreamBody) {
	clean := func(s string) string { return strings.TrimSpace(strings.TrimRight(s, "@ ")) }
	if n := clean(m.Name); n != "" {
		r.Has |= ingest.HasName
		r.Name = n
	}
	if c := clean(m.CallSign); c != "" {
		r.Has |= ingest.HasCallSign
		r.CallSign = c
	}
	if m.Type != 0 {
		r.Has |= ingest.HasShipType
		r.ShipType = m.Type
	}
	if d := m.Dimension; d != nil && d.A+d.B > 0 {
		r.Has |= ingest.HasDimensions
		r.ToBow, r.ToStern, r.ToPort, r.ToStarboard = d.A, d.B, d.C, d.D
	}
}
