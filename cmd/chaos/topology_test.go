package chaos

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// repoRoot is the repository, two levels up from this package.
var repoRoot = func() string {
	wd, _ := os.Getwd()
	return filepath.Clean(filepath.Join(wd, "..", ".."))
}()

// topology is a private local cluster of clickhouse/local/cluster.sh: its
// own directory and port offset, so the default topology (and the shared
// single node) are never touched.
type topology struct {
	dir      string
	offset   int
	database string
}

// startTopology starts the cluster (ZooKeeper and 2 shards x 2 replicas)
// and stops it, deleting its directory, at cleanup.
func startTopology(t *testing.T, offset int, database string) *topology {
	t.Helper()
	dir, err := os.MkdirTemp(scratch(), "overwatch-chaos-cluster-")
	if err != nil {
		t.Fatal(err)
	}
	tp := &topology{dir: dir, offset: offset, database: database}
	t.Cleanup(func() {
		if out, err := tp.script("down", "CLUSTER_WIPE=1"); err != nil {
			t.Errorf("cluster down: %v\n%s", err, out)
		}
	})
	if out, err := tp.script("up"); err != nil {
		hint := ""
		if strings.Contains(out, "is taken by a process this script did not start") {
			hint = "\nanother chaos run uses these ports, or a killed one left its cluster: stop it with " +
				"CLUSTER_DIR=<its overwatch-chaos-cluster-* directory in /dev/shm or /tmp> clickhouse/local/cluster.sh down, " +
				"or set OVERWATCH_CHAOS_PORT_OFFSET"
		}
		t.Fatalf("cluster up: %v\n%s%s", err, out, hint)
	}
	return tp
}

// scratch is where the cluster and PostgreSQL keep their data: /dev/shm
// when it is a tmpfs with 4 GB free (faster, and deleting tens of thousands
// of part files at the end takes no time), else the temporary directory.
func scratch() string {
	var st syscall.Statfs_t
	if err := syscall.Statfs("/dev/shm", &st); err == nil && st.Type == 0x01021994 && st.Bavail*uint64(st.Bsize) >= 4<<30 {
		return "/dev/shm"
	}
	return os.TempDir()
}

// script runs clickhouse/local/cluster.sh with the topology's environment.
func (tp *topology) script(command string, env ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(repoRoot, "clickhouse/local/cluster.sh"), command)
	cmd.Env = append(os.Environ(), "CLUSTER_DIR="+tp.dir, "CLUSTER_PORT_OFFSET="+strconv.Itoa(tp.offset),
		"CLUSTER_DATABASE="+tp.database)
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// up starts what is not running (after a kill) and waits until every node
// answers, ON CLUSTER DDL works and no replica is read-only.
func (tp *topology) up(t *testing.T) time.Duration {
	t.Helper()
	start := time.Now()
	if out, err := tp.script("up"); err != nil {
		t.Fatalf("cluster up: %v\n%s", err, out)
	}
	return time.Since(start)
}

// tcpPort is node n's native port (n = 1..4).
func (tp *topology) tcpPort(n int) int { return 9100 + n + tp.offset }

// url is the cluster URL the service gets: every node, node1 first.
func (tp *topology) url() string {
	var hosts []string
	for n := 1; n <= 4; n++ {
		hosts = append(hosts, fmt.Sprintf("127.0.0.1:%d", tp.tcpPort(n)))
	}
	return "clickhouse://" + strings.Join(hosts, ",") + "/" + tp.database
}

// nodeURL is one node alone (for per-node counts).
func (tp *topology) nodeURL(n int) string {
	return fmt.Sprintf("clickhouse://127.0.0.1:%d/%s", tp.tcpPort(n), tp.database)
}

// kill sends SIGKILL to a process of the topology ("zk", "node1".."node4")
// and waits until it is gone.
func (tp *topology) kill(t *testing.T, name string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(tp.dir, name, "pid"))
	if err != nil {
		t.Fatalf("kill %s: %v", name, err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil {
		t.Fatalf("kill %s: pid file: %v", name, err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill %s (pid %d): %v", name, pid, err)
	}
	waitGone(t, pid, name)
}

// waitGone waits until the process has exited (it is not our child: poll).
func waitGone(t *testing.T, pid int, name string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil && zombie(string(raw)) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s (pid %d) did not exit", name, pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// zombie reports a /proc/<pid>/stat line in state Z (exited, not reaped).
func zombie(stat string) bool {
	i := strings.LastIndexByte(stat, ')')
	return i >= 0 && len(stat) > i+2 && stat[i+2] == 'Z'
}
