package cli

import (
	"bytes"
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"benchpress/internal/target"
	"benchpress/internal/target/sockio"
	"benchpress/internal/testdb"
)

// runCLIProcs runs the root command with a process hook that gives a
// blocking run a P per terminal, and spares unless the terminals' yields
// serve the runner's goroutines (what cmd/benchpress does), when procs is
// set, and none otherwise.
func runCLIProcs(t *testing.T, procs bool, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	app := &App{Out: &out, Err: &errb, Getenv: func(string) string { return "" }, Version: "test"}
	if procs {
		app.TuneProcess = func(p ProcessPlan) func() {
			if !p.BlockingIO {
				return func() {}
			}
			prev := runtime.GOMAXPROCS(p.Procs())
			gc := debug.SetGCPercent(1000)
			return func() { runtime.GOMAXPROCS(prev); debug.SetGCPercent(gc) }
		}
	}
	return runApp(app, &out, &errb, args...)
}

// TestTPCCSocketModes runs TPC-C on MariaDB and PostgreSQL with blocking
// sockets (auto, 8 terminals), with the poller (--socket-io poller, and
// auto with one terminal more than target.BlockingMax) and
// with blocking asked for but no P per terminal (no process hook: the run
// must fall back to the poller rather than starve terminals). Every run
// counts exactly the orders the database gained (on PostgreSQL with more
// terminals than CPUs, terminals that yield between transactions) and says
// in its result how its terminals waited.
func TestTPCCSocketModes(t *testing.T) {
	if !sockio.Supported {
		t.Skip("blocking sockets are Linux-only")
	}
	for _, kind := range []target.Kind{target.MySQL, target.Postgres} {
		t.Run(string(kind), func(t *testing.T) {
			tg := testdb.For(t, kind, "cli_sock")
			url := urlOf(tg)
			ensureTPCC(t, tg, url, 2)
			above := strconv.Itoa(target.BlockingMax + 1)
			tests := []struct {
				name  string
				procs bool
				flags []string
				want  string
			}{
				{"auto", true, nil, "blocking"},
				{"poller", true, []string{"--socket-io", "poller"}, "poller"},
				// 129-257 terminals on 2 warehouses queue on the warehouse
				// rows: the p90 Payment check may fail (exit 8) on a slow
				// host; the socket mode and the counts are what is tested.
				{"auto above BlockingMax", true, []string{"--terminals", above}, "poller"},
				{"blocking without a P per terminal", false, []string{"--socket-io", "blocking"}, "poller"},
			}
			for _, tc := range tests {
				t.Run(tc.name, func(t *testing.T) {
					js := filepath.Join(t.TempDir(), "r.json")
					before := ordersOf(t, tg)
					args := append([]string{"tpcc", "run", "--target", url, "--terminals", "8", "--warmup", "0s", "--duration", "3s",
						"--report-interval", "0", "--json", js}, tc.flags...)
					out, errs, code := runCLIProcs(t, tc.procs, args...)
					if code != 0 && (code != ExitCheckFailed || tc.name != "auto above BlockingMax") {
						t.Fatalf("exit %d\n%s%s", code, out, errs)
					}
					r := readResult(t, js)
					gained := ordersOf(t, tg) - before
					if r.Summary.NewOrderCommitted != gained || gained == 0 {
						t.Errorf("New-Order committed %d, the database gained %d orders", r.Summary.NewOrderCommitted, gained)
					}
					if r.Driver == nil || r.Driver.SocketIO != tc.want {
						t.Fatalf("driver %+v, want socket_io %s", r.Driver, tc.want)
					}
					if tc.want == "blocking" {
						// 8 PostgreSQL terminals on fewer CPUs yield with a P
						// each (target.SharedYield); otherwise 4 spare Ps.
						// Blocking terminals yield every 5 ms either way.
						want, yield := 8+4, 5.0
						if target.SharedYield(kind, 8, runtime.NumCPU()) {
							want = 8
						}
						if r.Driver.GoMaxProcs != max(want, runtime.NumCPU()) {
							t.Errorf("blocking run with GOMAXPROCS %d for 8 terminals, want %d", r.Driver.GoMaxProcs, want)
						}
						if r.Driver.YieldMS != yield || (yield > 0) != strings.Contains(out, "terminals yield every 5 ms") {
							t.Errorf("driver.yield_ms %v, want %v; summary:\n%s", r.Driver.YieldMS, yield, out)
						}
						// TPC-C's reads yield before they wait once the 8
						// terminals outnumber the CPUs (workload.LongRoundTrips).
						wait := 8 > runtime.NumCPU()
						if r.Driver.YieldBeforeWait != wait || wait != strings.Contains(out, "reads yield once before they wait") {
							t.Errorf("driver.yield_before_wait %v, want %v; summary:\n%s", r.Driver.YieldBeforeWait, wait, out)
						}
						// and wait for slow replies parked in the poller.
						park := float64(sockio.ReadSlice) / float64(time.Millisecond)
						if r.Driver.ParkLongWaitsMS != park || !strings.Contains(out, fmt.Sprintf("waits over %g ms park in the poller", park)) {
							t.Errorf("driver.park_long_waits_ms %v, want %v; summary:\n%s", r.Driver.ParkLongWaitsMS, park, out)
						}
					}
					if !strings.Contains(out, tc.want+" sockets") {
						t.Errorf("summary does not say %q:\n%s", tc.want+" sockets", out)
					}
				})
			}
		})
	}
}

// TestSysbenchReadsDoNotYieldBeforeWait: sysbench's short round trips do
// not opt in to a yield before a blocking wait nor to parking long waits
// (workload.LongRoundTrips, which TPC-C implements): 8 threads read
// without the yield on either server, PostgreSQL's terminals sharing the
// CPUs (target.SharedYield) included.
func TestSysbenchReadsDoNotYieldBeforeWait(t *testing.T) {
	if !sockio.Supported {
		t.Skip("blocking sockets are Linux-only")
	}
	for _, kind := range []target.Kind{target.MySQL, target.Postgres} {
		t.Run(string(kind), func(t *testing.T) {
			url := urlOf(testdb.For(t, kind, "cli_sock_sb"))
			common := []string{"--target", url, "--tables", "1", "--table-size", "200"}
			runCLIProcs(t, true, append([]string{"sysbench", "cleanup"}, common...)...) // a previous run's tables
			if out, errs, code := runCLIProcs(t, true, append([]string{"sysbench", "prepare"}, common...)...); code != 0 {
				t.Fatalf("prepare: exit %d\n%s%s", code, out, errs)
			}
			js := filepath.Join(t.TempDir(), "r.json")
			args := append([]string{"sysbench", "run", "oltp_point_select", "--threads", "8", "--time", "2", "--report-interval", "0", "--json", js}, common...)
			out, errs, code := runCLIProcs(t, true, args...)
			if code != 0 {
				t.Fatalf("run: exit %d\n%s%s", code, out, errs)
			}
			r := readResult(t, js)
			if r.Driver == nil || r.Driver.SocketIO != "blocking" || r.Driver.YieldBeforeWait || r.Driver.ParkLongWaitsMS != 0 {
				t.Fatalf("driver %+v, want blocking sockets, no yield_before_wait, no park_long_waits_ms", r.Driver)
			}
			if strings.Contains(out, "reads yield once before they wait") {
				t.Errorf("summary says the reads yield before they wait:\n%s", out)
			}
		})
	}
}
