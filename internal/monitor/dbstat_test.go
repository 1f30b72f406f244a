package monitor

import (
	"strconv"

	"benchpress/internal/results"
	"context"
	"strings"
	"testing"
	"time"

	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

func TestDBFiguresOf(t *testing.T) {
	my := func(v map[string]float64) DBReading { return DBReading{Kind: target.MySQL, Values: v} }
	pg := func(commits float64) DBReading {
		return DBReading{Kind: target.Postgres, Values: map[string]float64{"xact_commit": commits}}
	}
	ptr := func(r DBReading) *DBReading { return &r }
	tests := []struct {
		name  string
		a, b  DBReading
		cc    CommitCheck
		check string
	}{
		{"agree", my(map[string]float64{"Com_commit": 100}), my(map[string]float64{"Com_commit": 1100, "Threads_running": 9}),
			CommitCheck{ToolCommits: 996, Comparable: true, Slack: 8}, "agree"},
		{"server saw more", my(map[string]float64{"Com_commit": 0}), my(map[string]float64{"Com_commit": 5000}),
			CommitCheck{ToolCommits: 1000, Comparable: true, Slack: 8}, "disagree"},
		{"tool counted more", DBReading{Kind: target.Postgres, Values: map[string]float64{"xact_commit": 0}},
			DBReading{Kind: target.Postgres, Values: map[string]float64{"xact_commit": 500}},
			CommitCheck{ToolCommits: 1000, Comparable: true, Slack: 8}, "disagree"},
		{"autocommit", my(map[string]float64{"Com_commit": 0}), my(map[string]float64{"Com_commit": 3}),
			CommitCheck{ToolCommits: 1000, Comparable: false}, "n/a"},
		// The window's start (600) lagged; the quiet reading before the
		// warm-up (100) decides, against the whole run's count.
		{"from the quiet start", pg(600), pg(1100), CommitCheck{ToolCommits: 1000, Comparable: true, Slack: 8, From: ptr(pg(100))}, "agree"},
		{"lagging window start", pg(600), pg(1100), CommitCheck{ToolCommits: 1000, Comparable: true, Slack: 8}, "disagree"},
		{"quiet start, tool short", pg(600), pg(1100), CommitCheck{ToolCommits: 900, Comparable: true, Slack: 8, From: ptr(pg(100))}, "disagree"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := DBFiguresOf(tc.a, tc.b, tc.cc)
			if f.CommitCheck != tc.check {
				t.Errorf("check = %s (%s), want %s", f.CommitCheck, f.CommitNote, tc.check)
			}
			if want := map[bool]string{true: "run"}[tc.cc.From != nil]; f.CommitsOver != want {
				t.Errorf("commits over %q, want %q", f.CommitsOver, want)
			}
		})
	}
	f := DBFiguresOf(my(map[string]float64{"Com_commit": 100, "Threads_running": 2}), my(map[string]float64{"Com_commit": 1100, "Threads_running": 9}), CommitCheck{})
	if f.Counters["Com_commit"] != 1000 || f.Gauges["Threads_running"] != 9 || f.ServerCommits != 1000 {
		t.Errorf("figures = %+v", f)
	}
}

func TestSizeLine(t *testing.T) {
	s := DBSizeForTest(3<<30, 1<<30, 6<<30)
	got := s.Line()
	want := "database size: 1 table(s), data 3.0 GiB + index 1.0 GiB = 4.0 GiB on disk; generated 6.0 GiB raw: compression 1.50x (on-disk size 66.7% of raw)"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// commitEach runs n transactions on conn, the i-th one statement stmt(i).
func commitEach(t *testing.T, conn target.Conn, n int, stmt func(i int) string) {
	t.Helper()
	ctx := context.Background()
	for i := 0; i < n; i++ {
		if err := conn.Begin(ctx, true); err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(ctx, stmt(i)); err != nil {
			t.Fatal(err)
		}
		if err := conn.Commit(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFlushPGStats commits on one PostgreSQL session and reads the
// counter from another at once: after FlushPGStats nothing the first
// session did is missing, without waiting out the backends' one-second
// flush interval.
func TestFlushPGStats(t *testing.T) {
	ctx := context.Background()
	tg := testdb.For(t, target.Postgres, "monitor")
	_, admin := testdb.Connect(t, tg, target.Options{})
	_, work := testdb.Connect(t, tg, target.Options{})
	if err := FlushPGStats(ctx, admin, []target.Conn{work}); err != nil {
		t.Fatal(err)
	}
	a, err := ReadDBCounters(ctx, admin)
	if err != nil {
		t.Fatal(err)
	}
	const n = 200
	commitEach(t, work, n, func(int) string { return "SELECT 1" })
	if err := FlushPGStats(ctx, admin, []target.Conn{work}); err != nil {
		t.Fatal(err)
	}
	b, err := ReadDBCounters(ctx, admin)
	if err != nil {
		t.Fatal(err)
	}
	// Besides the n transactions: the two flush calls and the admin's
	// first reading (2 statements); other tests use other databases.
	if got := b.Values["xact_commit"] - a.Values["xact_commit"]; got < n || got > n+6 {
		t.Errorf("xact_commit +%v after %d commits and a flush, want %d..%d", got, n, n, n+6)
	}
}

// TestDBCountersLive reads the counters and sizes of the real servers
// around a burst of commits made on a table of this test.
func TestDBCountersLive(t *testing.T) {
	ctx := context.Background()
	for _, kind := range []target.Kind{target.MySQL, target.Postgres} {
		t.Run(string(kind), func(t *testing.T) {
			tg := testdb.For(t, kind, "monitor")
			_, conn := testdb.Connect(t, tg, target.Options{})
			if _, err := conn.Exec(ctx, "DROP TABLE IF EXISTS watch_t"); err != nil {
				t.Fatal(err)
			}
			if _, err := conn.Exec(ctx, "CREATE TABLE watch_t (id INT PRIMARY KEY, v VARCHAR(100))"); err != nil {
				t.Fatal(err)
			}
			defer conn.Exec(ctx, "DROP TABLE watch_t") //nolint:errcheck
			a, err := ReadDBCounters(ctx, conn)
			if err != nil {
				t.Fatal(err)
			}
			const n = 50
			commitEach(t, conn, n, func(i int) string {
				return "INSERT INTO watch_t VALUES (" + itoa(i) + ", 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx')"
			})
			if kind == target.Postgres {
				time.Sleep(1200 * time.Millisecond) // backends flush statistics at most once a second
			}
			b, err := ReadDBCounters(ctx, conn)
			if err != nil {
				t.Fatal(err)
			}
			// Slack 10: on PostgreSQL every statement of this session is a
			// transaction too (the DDL above, flushed late, and the counter
			// queries themselves).
			f := DBFiguresOf(a, b, CommitCheck{ToolCommits: n, Comparable: true, Slack: 10})
			// MySQL's counters are server-wide: other tests may add commits,
			// never remove ours.
			if f.ServerCommits < n || (kind == target.Postgres && f.CommitCheck != "agree") {
				t.Errorf("%s: %s (%+v)", kind, f.CommitNote, f.Counters)
			}
			size, err := ReadDBSize(ctx, conn)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, tb := range size.Tables {
				if tb.Name == "watch_t" {
					found = tb.DataBytes > 0
				}
			}
			if !found || size.TotalBytes <= 0 || !strings.Contains(size.Line(), "on disk") {
				t.Errorf("size = %+v", size)
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// DBSizeForTest is one table of data and index bytes with raw bytes.
func DBSizeForTest(data, index, raw int64) *results.DBSize {
	return &results.DBSize{Tables: []results.TableSize{{Name: "t", DataBytes: data, IndexBytes: index}},
		DataBytes: data, IndexBytes: index, TotalBytes: data + index, RawBytes: raw}
}
