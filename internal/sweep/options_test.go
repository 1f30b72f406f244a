package sweep

import (
	"errors"
	"strings"
	"testing"
)

// TestPlanOptionsFollowTheCLI: a plan's workloads, options and target URLs
// are checked by the same declarations and rules as the CLI's run
// commands, each problem at its line.
func TestPlanOptionsFollowTheCLI(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // problems; nil = valid
	}{
		{"read_write_split runs", `name: x
targets: {a: "mysql://b@h/db"}
defaults: {workload: sysbench/oltp_read_write_split, table_size: 1000, rand-type: uniform}
cases: [{id: A}]
`, nil},
		{"bulk_insert is not a test", `name: x
targets: {a: "mysql://b@h/db"}
defaults: {workload: sysbench/bulk_insert}
cases: [{id: A}]
`, []string{`p.yaml:3: defaults: unknown sysbench test "bulk_insert": use one of`}},
		{"unknown keys in defaults and a case", `name: x
targets: {a: "mysql://b@h/db"}
defaults:
  workload: tpcc
  terminalz: 8
cases:
  - id: A
    mix: "45,43,4,4,bogus"
  - id: B
    overrides: {warehousez: 2}
`, []string{
			`p.yaml:5: defaults: unknown tpcc option "terminalz"`,
			`p.yaml:8: case "A": --mix: `,
			`p.yaml:10: case "B": unknown tpcc option "warehousez"`,
		}},
		{"values the run would reject", `name: x
targets: {a: "mysql://b@h/db"}
defaults: {workload: ycsb/a, p: {requestdistribution: gauss}}
cases:
  - {id: A, statement-mode: fast}
  - {id: B, threads: 4}
`, []string{
			`p.yaml:3: defaults: -p requestdistribution=gauss: `,
			`p.yaml:5: case "A": --statement-mode "fast": use prepared or text`,
			`p.yaml:6: case "B": option "threads" cannot be set in a plan: the ladder sets the concurrency`,
		}},
		// The run's timing flags would be overwritten by the plan's own
		// keys: refused, never silently ignored.
		{"timing flags as options", `name: x
targets: {a: "mysql://b@h/db"}
defaults: {workload: sysbench/oltp_point_select, time: 60}
cases:
  - {id: A, warmup_time: 5}
  - {id: B, report-interval: 10s}
`, []string{
			`p.yaml:3: defaults: option "time" cannot be set in a plan: use the plan's duration key`,
			`p.yaml:5: case "A": option "warmup_time" cannot be set in a plan: use the plan's warmup key`,
			`p.yaml:6: case "B": option "report-interval" cannot be set in a plan: use the plan's report_interval key`,
		}},
		{"target schemes as the CLI", `name: x
targets:
  tidb: "tidb://root@h:4000/db"
  maria: "mariadb://root:${PW}@h/db"
  pg: "pg://u@h/db"
  bad: "oracle://u@h/db"
  nodb: "mysql://u@h:3306"
defaults: {workload: tpcc}
cases: [{id: A, target: tidb, mysql-client: driver}]
`, []string{
			`p.yaml:6: target "bad": unknown target scheme "oracle"`,
			`p.yaml:7: target "nodb": invalid target URL "mysql://u@h:3306": missing database name`,
		}},
		{"partitioned at the barrier", `name: x
targets: {a: "mysql://b@h/db"}
defaults: {workload: tpcc, partition: 0/2, run_id: poc}
ladder: [2, 8]
cases: [{id: A}]
`, nil},
		{"partitioned from a step of one terminal", `name: x
targets: {a: "mysql://b@h/db"}
defaults: {workload: tpcc, partition: 0/2, run_id: poc}
cases: [{id: A}]
`, []string{
			`p.yaml:3: defaults: ladder step 1: partition 0/2: 1 terminal(s) cannot be split into 2 partitions`,
		}},
		{"start-at cannot start every step", `name: x
targets: {a: "mysql://b@h/db"}
defaults: {workload: tpcc, partition: 0/2}
cases:
  - {id: A, start_at: "2026-11-23T14:00:00Z"}
  - id: B
    overrides: {start-at: "2026-11-23T15:00:00Z"}
`, []string{
			`p.yaml:5: case "A": start-at cannot be used in a plan: every step would get the same instant`,
			`p.yaml:7: case "B": start-at cannot be used in a plan`,
		}},
		{"mixed workloads keep their own defaults", `name: x
targets: {a: "mysql://b@h/db"}
defaults: {workload: tpcc, warehouses: 2, tables: 4}
cases:
  - {id: T}
  - {id: S, workload: sysbench/oltp_read_only}
`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParsePlan("p.yaml", []byte(tc.src))
			if tc.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				for _, rc := range p.ResolvedCases() {
					if rc.Config == nil {
						t.Errorf("case %s: no typed options", rc.ID)
					}
				}
				return
			}
			var pe *PlanError
			if !errors.As(err, &pe) {
				t.Fatalf("want *PlanError, got %v", err)
			}
			if len(pe.Problems) != len(tc.want) {
				t.Fatalf("%d problems, want %d:\n%v", len(pe.Problems), len(tc.want), err)
			}
			for i, w := range tc.want {
				if got := pe.Problems[i].String(); !strings.HasPrefix(got, w) {
					t.Errorf("problem %d: %q, want prefix %q", i, got, w)
				}
			}
		})
	}
}

// TestMixedDefaultsReachTheirFamily: a defaults option goes to the cases
// whose workload declares it.
func TestMixedDefaultsReachTheirFamily(t *testing.T) {
	p, err := ParsePlan("p.yaml", []byte(`name: x
targets: {a: "mysql://b@h/db"}
defaults: {workload: tpcc, warehouses: 2, tables: 4}
cases:
  - {id: T}
  - {id: S, workload: sysbench/oltp_read_only}
`))
	if err != nil {
		t.Fatal(err)
	}
	rc := p.ResolvedCases()
	if rc[0].Options["warehouses"] != "2" || rc[0].Options["tables"] != "" ||
		rc[1].Options["tables"] != "4" || rc[1].Options["warehouses"] != "" {
		t.Fatalf("options: %v / %v", rc[0].Options, rc[1].Options)
	}
}
