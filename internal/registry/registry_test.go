package registry_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"benchpress/internal/registry"
	"benchpress/internal/runner"
	"benchpress/internal/usage"
	_ "benchpress/internal/workload/all"

	"github.com/spf13/pflag"
)

func TestLookup(t *testing.T) {
	tests := []struct {
		name, family, variant, err string
	}{
		{"tpcc", "tpcc", "", ""},
		{"sysbench/oltp_read_write_split", "sysbench", "oltp_read_write_split", ""},
		{"ycsb/c", "ycsb", "c", ""},
		{"ycsb/custom", "ycsb", "custom", ""},
		{"sysbench/bulk_insert", "", "", `unknown sysbench test "bulk_insert"`},
		{"sysbench", "", "", `needs a test: sysbench/<test>`},
		{"tpcc/x", "", "", `tpcc has no variants`},
		{"ycsb/g", "", "", `unknown YCSB workload "g"`},
		{"tpch", "", "", `unknown workload "tpch" (want sysbench/<test>, tpcc or ycsb/<a-f>)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, v, err := registry.Lookup(tc.name)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || m.Name != tc.family || v != tc.variant {
				t.Fatalf("got %v %q %v", m, v, err)
			}
		})
	}
}

func TestConfigure(t *testing.T) {
	st := registry.StepSettings{Concurrency: 4, Warmup: time.Second, Duration: 2 * time.Second}
	tests := []struct {
		name     string
		workload string
		options  map[string]string
		keys     []string // keys of the problems, in order ("" = the case)
	}{
		{"valid sysbench", "sysbench/oltp_read_only", map[string]string{"table_size": "100", "skip-trx": "on", "mysql_client": "driver"}, nil},
		{"valid ycsb with -p pairs", "ycsb/a", map[string]string{"p": registry.JoinList([]string{"recordcount=10", "operationcount=5"}), "records": "10"}, nil},
		// the whole value reaches the workload's own check (table must be an identifier)
		{"a -p value with a comma", "ycsb/a", map[string]string{"p": registry.JoinList([]string{"table=a,b", "operationcount=5"})}, []string{""}},
		{"a -p scalar is one property, as on the command line", "ycsb/a", map[string]string{"p": "recordcount=10,operationcount=5"}, []string{"p"}},
		{"unknown and owned keys", "tpcc", map[string]string{"terminalz": "8", "json": "x.json", "warehouses": "two"}, []string{"json", "terminalz", "warehouses"}},
		{"value checked by the run's rules", "tpcc", map[string]string{"mix": "1,2", "isolation": "snapshot"}, []string{"mix", "isolation"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts, problems := registry.Configure(tc.workload, tc.options, st)
			var keys []string
			for _, p := range problems {
				keys = append(keys, p.Key)
			}
			if strings.Join(keys, ",") != strings.Join(tc.keys, ",") || len(problems) != len(tc.keys) {
				t.Fatalf("problem keys %q, want %q: %v", keys, tc.keys, problems)
			}
			if tc.keys == nil && opts == nil {
				t.Fatal("no options")
			}
			if strings.HasPrefix(tc.name, "a -p value with a comma") && !strings.Contains(fmt.Sprint(problems), `table "a,b"`) {
				t.Fatalf("the value did not reach the workload whole: %v", problems)
			}
		})
	}
}

func TestDeclares(t *testing.T) {
	for _, tc := range []struct {
		workload, key string
		want          bool
	}{
		{"tpcc", "warehouses", true}, {"tpcc", "table_size", false}, {"sysbench/oltp_insert", "table_size", true},
		{"ycsb/a", "p", true}, {"ycsb/a", "mysql-client", true}, {"nope", "p", false},
	} {
		if got := registry.Declares(tc.workload, tc.key); got != tc.want {
			t.Errorf("Declares(%s, %s) = %v", tc.workload, tc.key, got)
		}
	}
}

func TestRunnerProblemsNamesTheCommandsFlags(t *testing.T) {
	sysbenchFlags := pflag.NewFlagSet("sysbench", pflag.ContinueOnError)
	sysbenchFlags.Int("threads", 1, "")
	sysbenchFlags.Duration("time", 0, "")
	sysbenchFlags.Duration("warmup-time", 0, "")
	tpccFlags := pflag.NewFlagSet("tpcc", pflag.ContinueOnError)
	tpccFlags.Int("terminals", 1, "")
	tpccFlags.Duration("duration", 0, "")
	tpccFlags.Duration("warmup", 0, "")
	ok := runner.Config{Terminals: 1, Duration: time.Second}
	with := func(f func(*runner.Config)) runner.Config { c := ok; f(&c); return c }
	for _, tc := range []struct {
		name     string
		c        runner.Config
		fs       *pflag.FlagSet
		required bool
		want     []string
	}{
		{"valid", ok, sysbenchFlags, true, nil},
		{"sysbench spellings", with(func(c *runner.Config) { c.Terminals, c.Warmup, c.Rate = 0, -time.Second, -1 }), sysbenchFlags, true,
			[]string{"--threads must be >= 1 (got 0)", "--warmup-time must not be negative (got -1s)", "--rate must not be negative (got -1)"}},
		{"tpcc spellings", with(func(c *runner.Config) { c.Terminals, c.Duration, c.MaxRetries = 0, 0, -2 }), tpccFlags, true,
			[]string{"--terminals must be >= 1 (got 0)", "--duration must be > 0 (got 0s)", "--max-retries must not be negative (got -2)"}},
		{"required duration, negative", with(func(c *runner.Config) { c.Duration = -time.Second }), tpccFlags, true,
			[]string{"--duration must be > 0 (got -1s)"}},
		{"required duration, zero with an operation count", with(func(c *runner.Config) { c.Duration, c.MaxOps = 0, 5 }), sysbenchFlags, true,
			[]string{"--time must be > 0 (got 0s)"}},
		{"optional duration, zero: left to the command", with(func(c *runner.Config) { c.Duration = 0 }), sysbenchFlags, false, nil},
		{"optional duration, negative", with(func(c *runner.Config) { c.Duration, c.ReportInterval = -time.Second, -time.Second }), sysbenchFlags, false,
			[]string{"--time must not be negative (got -1s)", "--report-interval must not be negative (got -1s)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, err := range registry.RunnerProblems(tc.c, tc.fs, tc.required) {
				var ue *usage.Error
				if !errors.As(err, &ue) {
					t.Errorf("%v is not a usage error", err)
				}
				got = append(got, err.Error())
			}
			if strings.Join(got, "; ") != strings.Join(tc.want, "; ") {
				t.Fatalf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
