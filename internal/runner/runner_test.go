package runner

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"benchpress/internal/metrics"
	"benchpress/internal/results"
	"benchpress/internal/target"
	"benchpress/internal/workload"
)

// fakeConn is a target.Conn that does nothing.
type fakeConn struct{ target.Conn }

func (fakeConn) Close() error          { return nil }
func (fakeConn) ServerVersion() string { return "fake 1.0" }

type fakeDialer struct{ fail atomic.Int64 }

func (d *fakeDialer) Connect(ctx context.Context) (target.Conn, error) {
	if d.fail.Load() > 0 {
		d.fail.Add(-1)
		return nil, errors.New("too many connections")
	}
	return fakeConn{}, nil
}

// fakeWL commits every op after a fixed service time and counts commits.
type fakeWL struct {
	service   time.Duration
	committed atomic.Int64
	failEvery int64
	failErr   error // returned by failing calls (default "boom")
	calls     atomic.Int64
}

func (w *fakeWL) Ops() []string    { return []string{"op"} }
func (w *fakeWL) Extras() []string { return nil }
func (w *fakeWL) NewTerminal(ctx context.Context, id, n int, c target.Conn) (workload.Terminal, error) {
	return &fakeTerm{wl: w}, nil
}

type fakeTerm struct{ wl *fakeWL }

func (t *fakeTerm) Next() int       { return 0 }
func (t *fakeTerm) Extras() []int64 { return nil }
func (t *fakeTerm) Close()          {}
func (t *fakeTerm) Exec(ctx context.Context, op int) (metrics.Outcome, error) {
	n := t.wl.calls.Add(1)
	time.Sleep(t.wl.service) // deliberately ignores ctx: an in-flight transaction
	if t.wl.failEvery > 0 && n%t.wl.failEvery == 0 {
		if t.wl.failErr != nil {
			return metrics.Failed, t.wl.failErr
		}
		return metrics.Failed, errors.New("boom")
	}
	t.wl.committed.Add(1)
	return metrics.OK, nil
}

// funcWL's terminals succeed at every op after calling exec with their id
// (tests that watch where and in what order the terminals run).
type funcWL struct{ exec func(id int) }

func (w *funcWL) Ops() []string    { return []string{"op"} }
func (w *funcWL) Extras() []string { return nil }
func (w *funcWL) NewTerminal(ctx context.Context, id, n int, c target.Conn) (workload.Terminal, error) {
	return &funcTerm{exec: w.exec, id: id}, nil
}

type funcTerm struct {
	exec func(id int)
	id   int
}

func (t *funcTerm) Next() int       { return 0 }
func (t *funcTerm) Extras() []int64 { return nil }
func (t *funcTerm) Close()          {}
func (t *funcTerm) Exec(ctx context.Context, op int) (metrics.Outcome, error) {
	t.exec(t.id)
	return metrics.OK, nil
}

func TestRunCountsEqualCommits(t *testing.T) {
	wl := &fakeWL{service: 7 * time.Millisecond}
	res, err := Run(context.Background(), Config{Terminals: 8, Duration: 1500 * time.Millisecond}, wl, &fakeDialer{})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Cumulative.Counts[0].OK
	if got != wl.committed.Load() {
		t.Fatalf("counted %d, committed %d: in-flight transactions lost at the window end", got, wl.committed.Load())
	}
	if s := res.MeasuredSeconds(); s < 1.45 || s > 2.5 {
		t.Fatalf("measured %.2fs, want 1.5s (and not much more on a loaded machine)", s)
	}
}

func TestRunWarmupExcluded(t *testing.T) {
	wl := &fakeWL{service: 5 * time.Millisecond}
	res, err := Run(context.Background(), Config{Terminals: 2, Warmup: 500 * time.Millisecond, Duration: time.Second}, wl, &fakeDialer{})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Cumulative.Counts[0].OK
	if got >= wl.committed.Load() || got == 0 {
		t.Fatalf("measured %d of %d commits; warm-up must be excluded and the window counted", got, wl.committed.Load())
	}
	// The window is 1 s of the 1.5 s run: about two thirds of the commits,
	// whatever the machine's load does to the 5 ms service time.
	if share := float64(got) / float64(wl.committed.Load()); share < 0.5 || share > 0.8 {
		t.Fatalf("measured %d of %d commits (%.2f), want about 2/3", got, wl.committed.Load(), share)
	}
}

func TestRunMaxOpsExact(t *testing.T) {
	wl := &fakeWL{service: time.Millisecond}
	res, err := Run(context.Background(), Config{Terminals: 4, MaxOps: 100}, wl, &fakeDialer{})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Cumulative.Counts[0].OK; got != 100 {
		t.Fatalf("ran %d ops, want exactly 100", got)
	}
}

func TestRunErrorsClassifiedAndCounted(t *testing.T) {
	wl := &fakeWL{service: time.Millisecond, failEvery: 10}
	res, err := Run(context.Background(), Config{Terminals: 2, Duration: 500 * time.Millisecond}, wl, &fakeDialer{})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Cumulative.Counts[0]
	if c.Errors() == 0 || c.Errs[target.ClassOther] != c.Errors() {
		t.Fatalf("errors %+v, want all in class other", c.Errs)
	}
	if c.OK+c.Errors() != wl.calls.Load() {
		t.Fatalf("ok+errors = %d, calls %d", c.OK+c.Errors(), wl.calls.Load())
	}
}

func TestRunInterruptKeepsMeasurement(t *testing.T) {
	wl := &fakeWL{service: 2 * time.Millisecond}
	ctx, cancel := context.WithTimeout(context.Background(), 600*time.Millisecond)
	defer cancel()
	res, err := Run(ctx, Config{Terminals: 2, Duration: time.Hour}, wl, &fakeDialer{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Interrupted || res.Cumulative.Counts[0].OK == 0 {
		t.Fatalf("interrupted=%v ok=%d: want interrupted with measurements kept", res.Interrupted, res.Cumulative.Counts[0].OK)
	}
}

func TestRunStartErrorReportedOnce(t *testing.T) {
	d := &fakeDialer{}
	d.fail.Store(3)
	_, err := Run(context.Background(), Config{Terminals: 10, Duration: time.Second}, &fakeWL{}, d)
	var se *StartError
	if !errors.As(err, &se) || se.Failed != 3 || se.Total != 10 {
		t.Fatalf("err = %v, want StartError 3 of 10", err)
	}
}

func TestRatePacerSchedule(t *testing.T) {
	start := time.Unix(0, 0)
	p := newRatePacer(start, 1000, false, 0)
	for i := 0; i < 5; i++ {
		if got, want := p.next().Sub(start), time.Duration(i)*time.Millisecond; got != want {
			t.Fatalf("ticket %d at %v, want %v", i, got, want)
		}
	}
}

func TestConfigValidateReportsAll(t *testing.T) {
	c := Config{Terminals: 0, Warmup: -1, Duration: -1, Rate: -1, MaxRetries: -1}
	err := c.Validate()
	if err == nil {
		t.Fatal("want errors")
	}
	for _, want := range []string{"terminals", "warm-up", "duration must not", "rate", "max-retries"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestConfigProblems(t *testing.T) {
	ok := Config{Terminals: 1, Duration: time.Second}
	with := func(f func(*Config)) Config { c := ok; f(&c); return c }
	for _, tc := range []struct {
		name string
		c    Config
		want []Setting // in field order
	}{
		{"valid", ok, nil},
		{"operation count without duration", with(func(c *Config) { c.Duration, c.MaxOps = 0, 10 }), nil},
		{"no duration, no operation count", with(func(c *Config) { c.Duration = 0 }), []Setting{SettingDuration}},
		{"zero terminals", with(func(c *Config) { c.Terminals = 0 }), []Setting{SettingTerminals}},
		{"negative settings", with(func(c *Config) {
			c.Warmup, c.Duration, c.Rate, c.MaxRetries, c.ReportInterval = -1, -1, -1, -1, -1
		}), []Setting{SettingWarmup, SettingDuration, SettingRate, SettingMaxRetries, SettingReportInterval}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := tc.c.Problems()
			var got []Setting
			for _, p := range ps {
				got = append(got, p.Setting)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("problems %v, want settings %v", ps, tc.want)
			}
			if err := tc.c.Validate(); (err != nil) != (len(tc.want) > 0) {
				t.Fatalf("Validate() = %v with problems %v", err, ps)
			}
		})
	}
}

// lostConnWL fails every n-th call with a lost connection, or (first > 0)
// only its first calls.
type lostConnWL struct {
	fakeWL
	n, first int64
}

func (w *lostConnWL) NewTerminal(ctx context.Context, id, n int, c target.Conn) (workload.Terminal, error) {
	return &lostConnTerm{wl: w}, nil
}

type lostConnTerm struct{ wl *lostConnWL }

func (t *lostConnTerm) Next() int       { return 0 }
func (t *lostConnTerm) Extras() []int64 { return nil }
func (t *lostConnTerm) Close()          {}
func (t *lostConnTerm) Exec(ctx context.Context, op int) (metrics.Outcome, error) {
	if n := t.wl.calls.Add(1); (t.wl.first == 0 && n%t.wl.n == 0) || n <= t.wl.first {
		return metrics.Failed, driver.ErrBadConn
	}
	t.wl.committed.Add(1)
	time.Sleep(time.Millisecond)
	return metrics.OK, nil
}

func TestRunReconnectsAndCarriesOn(t *testing.T) {
	wl := &lostConnWL{n: 50}
	d := &fakeDialer{}
	res, err := Run(context.Background(), Config{Terminals: 2, Duration: 1200 * time.Millisecond}, wl, d)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Cumulative.Counts[0]
	// Each lost session is re-opened, except at most one per terminal whose
	// reconnect back-off was cut short by the end of the run.
	lost := c.Errs[target.ClassLostConnection]
	if lost == 0 || res.Reconnects > lost || res.Reconnects < lost-2 {
		t.Fatalf("lost connections %d, reconnects %d: want every lost session re-opened", lost, res.Reconnects)
	}
	if c.OK < 5*lost {
		t.Fatalf("ok %d after %d lost connections: terminals did not carry on", c.OK, lost)
	}
}

// Sessions lost in the warm-up are re-opened and counted apart from the
// window's: the window's reconnects and errors stay 0, its samples say
// warm-up.
func TestWarmupReconnectsApart(t *testing.T) {
	wl := &lostConnWL{first: 3}
	res, err := Run(context.Background(), Config{Terminals: 2, Warmup: 500 * time.Millisecond, Duration: 300 * time.Millisecond}, wl, &fakeDialer{})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Cumulative.Counts[0]
	if res.WarmupReconnects != 3 || res.Reconnects != 0 || c.Errs[target.ClassLostConnection] != 0 || c.OK == 0 {
		t.Fatalf("reconnects %d in the warm-up, %d in the window; window lost %d, ok %d: want 3, 0, 0, > 0",
			res.WarmupReconnects, res.Reconnects, c.Errs[target.ClassLostConnection], c.OK)
	}
	if len(res.ErrorSamples) != 1 || res.ErrorSamples[0].Phase != results.PhaseWarmup || res.ErrorSamples[0].Count != 3 {
		t.Fatalf("error samples %+v, want one warm-up sample of 3", res.ErrorSamples)
	}
	// The failed transactions are counted apart too: the window's figures
	// say 0, the run says 3 started in the warm-up.
	if res.WarmupErrors != 3 {
		t.Fatalf("warm-up errors %d, want 3", res.WarmupErrors)
	}
}

// TestLoopDoesNotAllocatePerOp: the worker loop and the recording of a
// transaction allocate nothing per operation (what the ticker allocates once
// a second is spread over all operations of the second).
func TestLoopDoesNotAllocatePerOp(t *testing.T) {
	wl := &fakeWL{} // zero service time: as many ops as the loop can run
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := Run(context.Background(), Config{Terminals: 2, Duration: 500 * time.Millisecond}, wl, &fakeDialer{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	ops := res.Cumulative.Counts[0].OK
	if ops < 1000 {
		t.Fatalf("only %d ops in 0.5 s with no service time", ops)
	}
	if per := float64(after.Mallocs-before.Mallocs) / float64(ops); per > 0.05 {
		t.Fatalf("%.3f allocations per operation over %d operations, want ~0", per, ops)
	}
	t.Logf("%d operations, %d allocations", ops, after.Mallocs-before.Mallocs)
}

// stallWL: terminal 0's first transaction outlasts the window (a lock
// wait); the others commit every 5 ms.
type stallWL struct{ fakeWL }

func (w *stallWL) NewTerminal(ctx context.Context, id, n int, c target.Conn) (workload.Terminal, error) {
	return &stallTerm{fakeTerm: fakeTerm{wl: &w.fakeWL}, stall: id == 0}, nil
}

type stallTerm struct {
	fakeTerm
	stall bool
}

func (t *stallTerm) Exec(ctx context.Context, op int) (metrics.Outcome, error) {
	if t.stall {
		t.stall = false
		time.Sleep(1500 * time.Millisecond)
		return metrics.OK, nil
	}
	return t.fakeTerm.Exec(ctx, op)
}

// TestPerTerminal: the result counts each terminal's measured attempts, so
// a terminal stuck for the whole window shows as zero.
func TestPerTerminal(t *testing.T) {
	wl := &stallWL{fakeWL{service: 5 * time.Millisecond}}
	res, err := Run(context.Background(), Config{Terminals: 4, Warmup: 100 * time.Millisecond, Duration: time.Second}, wl, &fakeDialer{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PerTerminal) != 4 || res.PerTerminal[0] != 0 {
		t.Fatalf("per terminal %v: want 4 terminals, the first with none", res.PerTerminal)
	}
	var sum int64
	for _, n := range res.PerTerminal[1:] {
		if n < 50 {
			t.Errorf("per terminal %v: a working terminal with fewer than 50", res.PerTerminal)
		}
		sum += n
	}
	if c := res.Cumulative.Counts[0]; sum != c.OK {
		t.Errorf("per-terminal sum %d, window OK %d", sum, c.OK)
	}
}

// TestRetriesClassified: every failed attempt is counted by its class,
// the re-run ones as retries (RetryErrs) and the final ones as errors, and
// retried attempts' messages are sampled too: a lock-wait timeout whose
// retry commits is still a lock-wait timeout the user must see.
func TestRetriesClassified(t *testing.T) {
	lockWait := &mysql.MySQLError{Number: 1205, Message: "Lock wait timeout exceeded; try restarting transaction"}
	for _, tc := range []struct {
		name       string
		err        error
		maxRetries int
		class      target.Class
		retried    bool // the error class is re-run
	}{
		{"lock wait, retried", lockWait, 3, target.ClassLockTimeout, true},
		{"deadlock, retried", &mysql.MySQLError{Number: 1213, Message: "Deadlock found when trying to get lock"}, 2, target.ClassDeadlock, true},
		{"lock wait, no retries", lockWait, 0, target.ClassLockTimeout, false},
		{"other, never retried", errors.New("boom"), 3, target.ClassOther, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wl := &fakeWL{service: time.Millisecond, failEvery: 3, failErr: tc.err}
			res, err := Run(context.Background(), Config{Terminals: 2, MaxOps: 200, MaxRetries: tc.maxRetries}, wl, &fakeDialer{})
			if err != nil {
				t.Fatal(err)
			}
			c := res.Cumulative.Counts[0]
			failed := wl.calls.Load() - wl.committed.Load()
			if got := c.Errs[tc.class] + c.RetryErrs[tc.class]; got != failed || failed == 0 {
				t.Fatalf("failed attempts of %s: %d errors + %d retries, want %d (all the failed calls)", tc.class, c.Errs[tc.class], c.RetryErrs[tc.class], failed)
			}
			if tc.retried != (c.Retries > 0) || c.RetryErrs[tc.class] != c.Retries {
				t.Errorf("retries %d (%s %d), want retried %v", c.Retries, tc.class, c.RetryErrs[tc.class], tc.retried)
			}
			var sampled int64
			for _, s := range res.ErrorSamples {
				if s.Class != tc.class.String() {
					t.Errorf("sample of class %s, want %s", s.Class, tc.class)
				}
				sampled += s.Count
			}
			if sampled != failed {
				t.Errorf("samples count %d failed attempts, want %d", sampled, failed)
			}
		})
	}
}

// TestPerTerminalEvents: a terminal's events are its successful operations
// in the window, its failed attempts left out (sysbench's threads
// fairness counts events, and a failing terminal has done no work).
func TestPerTerminalEvents(t *testing.T) {
	for _, tc := range []struct {
		name      string
		failEvery int64
	}{
		{"no failures", 0},
		{"every third fails", 3},
		{"all fail", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wl := &fakeWL{service: time.Millisecond, failEvery: tc.failEvery}
			res, err := Run(context.Background(), Config{Terminals: 3, Warmup: 100 * time.Millisecond, Duration: 400 * time.Millisecond}, wl, &fakeDialer{})
			if err != nil {
				t.Fatal(err)
			}
			c := res.Cumulative.Counts[0]
			ev := res.PerTerminalEvents()
			if len(ev) != 3 || len(res.FailedPerTerminal) != 3 {
				t.Fatalf("events %v, failed %v: want 3 terminals", ev, res.FailedPerTerminal)
			}
			var events, failed int64
			for i := range ev {
				events += ev[i]
				failed += res.FailedPerTerminal[i]
				if ev[i]+res.FailedPerTerminal[i] != res.PerTerminal[i] {
					t.Errorf("terminal %d: %d events + %d failed != %d attempts", i+1, ev[i], res.FailedPerTerminal[i], res.PerTerminal[i])
				}
			}
			if events != c.OK+c.Rollback || failed != c.Errors() {
				t.Errorf("events %d, failed %d; window has %d ok, %d errors", events, failed, c.OK+c.Rollback, c.Errors())
			}
		})
	}
}
