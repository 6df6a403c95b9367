package clickhouse

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
)

// Direct shard writes (cluster mode). An insert through a Distributed table
// costs the cluster twice: the node the client talks to parses the block,
// computes every row's shard, writes its own shard's part and sends the rest
// over the native protocol to a replica of the other shard, which parses it
// again. The shard writer computes the same sharding expression in Go and
// sends each shard's rows, in one block, straight to the local (replicated)
// table of a healthy replica of that shard, the shards in parallel.
//
// Exactly once: a shard's block is the rows of the batch that belong to it,
// in the batch's order, so a batch sent again (a retry here, or the ingest
// pipeline's replay of its spool) sends each shard the same block, which
// the shard's block deduplication (insert_deduplicate, shared by its
// replicas through ZooKeeper) drops when an earlier attempt stored it. A
// replica that fails is left for the other replica of its shard.

// shardKeys are the column each sharded table is distributed by: the
// position history, port positions and static reports by MMSI, which every
// row has (86% of a real AIS capture has no IMO, and keying those by IMO put
// them all on one shard); the per-IMO tables (one row per IMO, read with
// FINAL) by IMO. Every version of a row (equal sorting key) has the same
// key, so FINAL stays exact per shard. Reads by IMO go to every shard
// through the Distributed tables.
var shardKeys = map[string]string{
	"positions": "mmsi", "port_positions": "mmsi", "static_reports": "mmsi",
	"latest_positions": "imo", "vessels": "imo", "vessel_identity": "imo",
}

// shardExpression is the sharding expression of table's Distributed table.
// intHash64 is the same function on every ClickHouse version (it is what
// cityHash64 of an integer computes), and shardOf computes it in Go.
func shardExpression(table string) string { return "intHash64(" + shardKeys[table] + ")" }

// intHash64 is ClickHouse's intHash64 function: the 64-bit finalizer of
// MurmurHash3 of the key xor ClickHouse's fixed seed.
func intHash64(key uint64) uint64 {
	x := key ^ 0x4CF2D2BAAE6DA887
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// shardLayout is the cluster's shards as a Distributed table sees them.
type shardLayout struct {
	replicas [][]string // the addresses of each shard's replicas, by shard_num
	slots    []int      // a row goes to shard slots[key % len(slots)]: each shard weight times
}

// shardOf is the index (shard_num - 1) of the shard a row with key goes
// to: what a Distributed table computes from intHash64(key).
func (l *shardLayout) shardOf(key uint32) int {
	return l.slots[intHash64(uint64(key))%uint64(len(l.slots))]
}

// shardWriter sends the rows of the sharded tables to their shards.
type shardWriter struct {
	conn     conn // the pool, to read the layout
	opts     *ch.Options
	database string

	mu        sync.Mutex
	layout    *shardLayout
	pools     map[string]driver.Conn
	preferred []int // per shard: the replica that took its last block
}

func newShardWriter(c conn, opts *ch.Options, database string) *shardWriter {
	return &shardWriter{conn: c, opts: opts, database: database, pools: map[string]driver.Conn{}}
}

// close closes the connections to the replicas.
func (w *shardWriter) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for addr, p := range w.pools {
		p.Close()
		delete(w.pools, addr)
	}
}

// loadLayout reads the shards and their weights from system.clusters, once.
func (w *shardWriter) loadLayout(ctx context.Context) (*shardLayout, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.layout != nil {
		return w.layout, nil
	}
	rows, err := w.conn.Conn.Query(ctx, `SELECT shard_num, shard_weight, host_address, port FROM system.clusters
		WHERE cluster = ? ORDER BY shard_num, replica_num`, w.conn.cluster.name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	l := &shardLayout{}
	last := uint32(0)
	for rows.Next() {
		var num, weight uint32
		var host string
		var port uint16
		if err := rows.Scan(&num, &weight, &host, &port); err != nil {
			return nil, err
		}
		if num != last {
			l.replicas = append(l.replicas, nil)
			for i := uint32(0); i < weight; i++ {
				l.slots = append(l.slots, len(l.replicas)-1)
			}
			last = num
		}
		i := len(l.replicas) - 1
		l.replicas[i] = append(l.replicas[i], fmt.Sprintf("%s:%d", host, port))
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(l.slots) == 0 {
		return nil, fmt.Errorf("clickhouse: cluster %s has no shard of positive weight in system.clusters", w.conn.cluster.name)
	}
	w.layout, w.preferred = l, make([]int, len(l.replicas))
	return l, nil
}

// pool is the connection pool to one replica.
func (w *shardWriter) pool(addr string) (driver.Conn, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if p, ok := w.pools[addr]; ok {
		return p, nil
	}
	opts := *w.opts
	opts.Addr = []string{addr}
	opts.MaxOpenConns, opts.MaxIdleConns = 4, 4
	opts.Settings = ch.Settings{"insert_deduplicate": 1}
	p, err := ch.Open(&opts)
	if err != nil {
		return nil, err
	}
	w.pools[addr] = p
	return p, nil
}

var insertColumns = regexp.MustCompile(`(?is)^\s*INSERT INTO (\w+)\s*\(([^)]*)\)\s*$`)

// columns sends the column slices of an insert into a sharded table to the
// shards; ok is false (nothing sent) for another table.
func (w *shardWriter) columns(ctx context.Context, insert string, cols []any) (ok bool, err error) {
	m := insertColumns.FindStringSubmatch(insert)
	if m == nil || shardKeys[m[1]] == "" {
		return false, nil
	}
	names := strings.Split(m[2], ",")
	var keys []uint32
	for i, name := range names {
		if strings.TrimSpace(name) == shardKeys[m[1]] && i < len(cols) {
			keys, _ = cols[i].([]uint32)
		}
	}
	if keys == nil {
		return true, fmt.Errorf("clickhouse: insert into %s without its sharding column %s as []uint32", m[1], shardKeys[m[1]])
	}
	return true, w.send(ctx, m[1], m[2], len(keys), func(i int) uint32 { return keys[i] }, func(b driver.Batch, rows []int) error {
		for i, c := range cols {
			if err := b.Column(i).Append(pick(c, rows)); err != nil {
				return fmt.Errorf("column %d: %w", i, err)
			}
		}
		return nil
	})
}

// send splits n rows by the shard of key(i) and sends each shard's rows,
// filled by fill in the order of rows, to table_local on a replica of the
// shard; the shards in parallel.
func (w *shardWriter) send(ctx context.Context, table, columns string, n int, key func(int) uint32, fill func(driver.Batch, []int) error) error {
	l, err := w.loadLayout(ctx)
	if err != nil {
		return fmt.Errorf("clickhouse: shard layout: %w", err)
	}
	perShard := make([][]int, len(l.replicas))
	for s := range perShard {
		perShard[s] = make([]int, 0, n/len(perShard)+n/8+1)
	}
	for i := 0; i < n; i++ {
		s := l.shardOf(key(i))
		perShard[s] = append(perShard[s], i)
	}
	insert := fmt.Sprintf("INSERT INTO %s.%s_local (%s)", w.database, table, columns)
	errs := make([]error, len(perShard))
	var wg sync.WaitGroup
	for s, rows := range perShard {
		if len(rows) == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[s] = w.sendShard(ctx, l, s, insert, func(b driver.Batch) error { return fill(b, rows) })
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// sendShard sends one shard's block to its preferred replica, then to the
// others, for clusterSendAttempts rounds while the failures are retryable.
func (w *shardWriter) sendShard(ctx context.Context, l *shardLayout, shard int, insert string, fill func(driver.Batch) error) error {
	replicas := l.replicas[shard]
	w.mu.Lock()
	first := w.preferred[shard]
	w.mu.Unlock()
	var err error
	for i := 0; i < clusterSendAttempts*len(replicas); i++ {
		if round := i / len(replicas); i > 0 && i%len(replicas) == 0 {
			select {
			case <-ctx.Done():
				return errors.Join(err, ctx.Err())
			case <-time.After(time.Duration(round*round) * 200 * time.Millisecond):
			}
		}
		r := (first + i) % len(replicas)
		if err = w.sendTo(ctx, replicas[r], insert, fill); err == nil {
			w.mu.Lock()
			w.preferred[shard] = r
			w.mu.Unlock()
			return nil
		}
		err = fmt.Errorf("shard %d on %s: %w", shard+1, replicas[r], err)
		if !retryable(err) {
			return err
		}
	}
	return err
}

// sendTo prepares, fills and sends one block on one replica.
func (w *shardWriter) sendTo(ctx context.Context, addr, insert string, fill func(driver.Batch) error) error {
	p, err := w.pool(addr)
	if err != nil {
		return err
	}
	batch, err := prepareOn(ctx, p, insert)
	if err != nil {
		return err
	}
	defer batch.Abort() //nolint:errcheck // a no-op once sent
	if err := fill(batch); err != nil {
		return errFill{err}
	}
	return batch.Send()
}
