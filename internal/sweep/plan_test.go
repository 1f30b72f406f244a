package sweep

import (
	"errors"
	"strings"
	"testing"
	"time"

	"benchpress/internal/registry"
)

const minimalPlan = `name: poc
targets:
  direct: mysql://bench@10.0.0.5:3306/tpcc
  proxy: mysql://bench@10.0.0.6:3307,10.0.0.7:3307/tpcc
defaults:
  workload: tpcc
  warehouses: 100
  warmup: 30s
  duration: 2m
ladder: [1, 8, 16, 64, 128, 256, 512, 1000, 1024, 2048]
cases:
  - id: T1-1
    target: direct
  - id: T1-2
    target: proxy
compare:
  - [T1-1, T1-2]
`

func TestParseMinimalPlan(t *testing.T) {
	p, err := ParsePlan("poc.yaml", []byte(minimalPlan))
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "poc" || len(p.Cases) != 2 || len(p.Compare) != 1 || len(p.Warnings) != 0 {
		t.Fatalf("unexpected plan: %+v", p)
	}
	rc := p.Resolve(p.Cases[1])
	if rc.Workload != "tpcc" || rc.Options["warehouses"] != "100" || rc.Warmup != 30*time.Second ||
		rc.Duration != 2*time.Minute || len(rc.Ladder) != 10 || rc.TargetName != "proxy" {
		t.Fatalf("resolved case: %+v", rc)
	}
	if c := p.Compare[0]; c.Base != "T1-1" || c.Other != "T1-2" || c.Name != "T1-1 vs T1-2" {
		t.Fatalf("compare: %+v", c)
	}
	if got := Estimate(p.Matrix()); got != 20*150*time.Second {
		t.Fatalf("estimate %s", got)
	}
}

func TestParseOverridesAndOptions(t *testing.T) {
	src := `name: mix
targets:
  pg:
    url: postgres://bench@db:5432/sb
    password_env: BENCH_PW
defaults:
  workload: sysbench/oltp_read_write
  tables: 4
  table-size: 100000
  cooldown: 10s
  report_interval: 5s
cases:
  - id: rw
    tables: 8
  - id: ycsb-a
    workload: ycsb/a
    overrides:
      ladder: [4, 2]
      duration: 90
      p: {recordcount: 1000, operationcount: 500}
`
	p, err := ParsePlan("mix.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	rw := p.Resolve(p.Cases[0])
	if rw.Options["tables"] != "8" || rw.Options["table-size"] != "100000" || rw.TargetName != "pg" ||
		rw.Cooldown != 10*time.Second || rw.ReportInterval != 5*time.Second || len(rw.Ladder) != len(DefaultLadder) {
		t.Fatalf("rw: %+v", rw)
	}
	y := p.Resolve(p.Cases[1])
	if y.Workload != "ycsb/a" || y.Duration != 90*time.Second || y.Ladder[0] != 4 ||
		y.Options["p"] != registry.JoinList([]string{"operationcount=500", "recordcount=1000"}) || y.Options["tables"] != "" {
		t.Fatalf("ycsb: %+v", y)
	}
	// the resolved plan writes the list back as a list, and it reads back the same
	b, err := p.MarshalResolved()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "p: [operationcount=500, recordcount=1000]") {
		t.Errorf("resolved plan:\n%s", b)
	}
	back, err := ParsePlan("plan.yaml", b)
	if err != nil {
		t.Fatalf("resolved plan does not parse back: %v", err)
	}
	if got := back.Resolve(back.Cases[1]).Options["p"]; got != y.Options["p"] {
		t.Errorf("p read back as %q, want %q", got, y.Options["p"])
	}
	u, err := ExpandURL(p.Targets["pg"], func(k string) string { return map[string]string{"BENCH_PW": "s@cret"}[k] })
	if err != nil || u != "postgres://bench:s%40cret@db:5432/sb" {
		t.Fatalf("expand: %q %v", u, err)
	}
	if _, err := ExpandURL(p.Targets["pg"], func(string) string { return "" }); err == nil ||
		err.Error() != `target "pg": environment variable(s) not set: BENCH_PW` {
		t.Fatalf("missing env: %v", err)
	}
}

func TestInlinePasswordWarns(t *testing.T) {
	src := strings.Replace(minimalPlan, "mysql://bench@10.0.0.5", "mysql://bench:hunter2@10.0.0.5", 1)
	p, err := ParsePlan("poc.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := `poc.yaml:3: target "direct" has an inline password; prefer ${ENV_VAR} in the URL or password_env`
	if len(p.Warnings) != 1 || p.Warnings[0] != want {
		t.Fatalf("warnings %q", p.Warnings)
	}
	b, _ := p.MarshalResolved()
	if strings.Contains(string(b), "hunter2") {
		t.Fatalf("resolved plan leaks the password:\n%s", b)
	}
	if _, err := ParsePlan("plan.yaml", b); err != nil {
		t.Fatalf("resolved plan does not parse back: %v", err)
	}
	src = strings.Replace(minimalPlan, "mysql://bench@10.0.0.5", "mysql://bench:${BENCH_PW}@10.0.0.5", 1)
	if p, err := ParsePlan("poc.yaml", []byte(src)); err != nil || len(p.Warnings) != 0 {
		t.Fatalf("env reference: %v %v", err, p.Warnings)
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"mysql://u:p@w@h:1,h2:2/db":               "mysql://u@h:1,h2:2/db",
		"postgres://u@h/db?password=x&sslmode=on": "postgres://u@h/db?password=REDACTED&sslmode=on",
		"sqlite:///tmp/x.db":                      "sqlite:///tmp/x.db",
		// A base64 password from ${VAR}: '/' and '?' before the last '@'
		// (target.Parse connects with the whole of it).
		"mysql://bench:Ab3/xY9+@h:3306/db":  "mysql://bench@h:3306/db",
		"mysql://bench:a?b/c@h/db?x=1":      "mysql://bench@h/db?x=1",
		"postgres://u@h/db?sslkey=k&app=bp": "postgres://u@h/db?sslkey=REDACTED&app=bp",
		"sqlite:///data/a@b:c.db":           "sqlite:///data/a@b:c.db",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPlanProblems checks the exact messages for bad plans; each plan's
// problems are all reported at once.
func TestPlanProblems(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"unknown top-level key", strings.Replace(minimalPlan, "name: poc", "name: poc\nladdr: [1]", 1), []string{
			`p.yaml:2: unknown key "laddr" (known: cases, compare, defaults, description, hosts, ladder, name, targets)`,
		}},
		{"unknown target, duplicate case, bad compare", `name: x
targets:
  direct: mysql://b@h:3306/db
  proxy: mysql://b@h:3307/db
defaults: {workload: tpcc}
cases:
  - id: A
    target: direct
  - id: A
    target: proxyy
compare:
  - [A, Z]
  - {name: n, base: A, other: A, extra: 1}
  - [A]
`, []string{
			`p.yaml:9: duplicate case id "A" (first at line 7)`,
			`p.yaml:10: case "A": unknown target "proxyy" (known: direct, proxy)`,
			`p.yaml:12: compare[0]: unknown case "Z" (known: A)`,
			`p.yaml:13: compare[1]: unknown key "extra" (known: base, name, other)`,
			`p.yaml:13: compare[1]: base and other are the same case "A"`,
			`p.yaml:14: compare[2]: a pair needs exactly two case ids (got 1)`,
		}},
		{"bad durations and ladders", `name: x
targets: {t: mysql://b@h/db}
defaults:
  workload: tpcc
  warmup: 30x
  duration: 0s
  cooldown: -5s
ladder: []
cases:
  - id: A
    ladder: [1, 0, two, 1, -4]
`, []string{
			`p.yaml:5: defaults: warmup: bad duration "30x" (use e.g. 30s, 2m, 1h)`,
			`p.yaml:6: defaults: duration must be > 0`,
			`p.yaml:7: defaults: cooldown must not be negative (got -5s)`,
			`p.yaml:8: ladder is empty; list at least one concurrency`,
			`p.yaml:11: case "A": ladder[1]: concurrency must be > 0 (got 0)`,
			`p.yaml:11: case "A": ladder[2]: "two" is not an integer`,
			`p.yaml:11: case "A": ladder[3]: duplicate step 1`,
			`p.yaml:11: case "A": ladder[4]: concurrency must be > 0 (got -4)`,
		}},
		{"unknown workloads", `name: x
targets: {t: mysql://b@h/db}
defaults:
  workload: tpch
cases:
  - id: A
    workload: sysbench/oltp_foo
  - id: B
    workload: ycsb/g
  - id: C
`, []string{
			`p.yaml:4: defaults: unknown workload "tpch" (want sysbench/<test>, tpcc or ycsb/<a-f>)`,
			`p.yaml:7: case "A": unknown sysbench test "oltp_foo": use one of oltp_point_select, oltp_read_only, oltp_read_write, oltp_write_only, oltp_update_index, oltp_update_non_index, oltp_insert, oltp_delete, oltp_read_write_split`,
			`p.yaml:9: case "B": unknown YCSB workload "g" (want a, b, c, d, e, f or custom)`,
		}},
		{"missing pieces", `description: nothing
cases: []
`, []string{
			`p.yaml:1: missing required key "name"`,
			`p.yaml:1: missing required key "targets"`,
			`p.yaml:2: cases: at least one case is required`,
		}},
		{"case without id, target or workload", `name: x
targets:
  a: mysql://b@h/db
  b: ftp://h/db
  c: {url: "", user: x}
cases:
  - target: a
  - id: "../etc"
  - id: ok
`, []string{
			`p.yaml:4: target "b": unknown target scheme "ftp" (use mysql://, postgres:// or sqlite://)`,
			`p.yaml:5: target "c": unknown key "user" (known: password_env, url)`,
			`p.yaml:5: target "c": url is required`,
			`p.yaml:7: case #1: missing id`,
			`p.yaml:7: case #1: no workload (set defaults.workload or the case's workload)`,
			`p.yaml:8: case id "../etc" must start with a letter or digit and use only letters, digits, '.', '_' and '-'`,
			`p.yaml:8: case "../etc": missing target (known: a, b, c)`,
			`p.yaml:8: case "../etc": no workload (set defaults.workload or the case's workload)`,
			`p.yaml:9: case "ok": missing target (known: a, b, c)`,
			`p.yaml:9: case "ok": no workload (set defaults.workload or the case's workload)`,
		}},
		{"password_env without a user, or beside a password", `name: x
targets:
  a: {url: "mysql://10.0.0.5:3306/tpcc", password_env: PW}
  b: {url: "mysql://bench:${X}@h/db", password_env: PW}
  c: {url: "mysql://bench@h/db", password_env: PW}
cases: [{id: A, target: c, workload: tpcc}]
`, []string{
			`p.yaml:3: target "a": password_env needs a user name in the URL (mysql://USER@host/db)`,
			`p.yaml:4: target "b": password_env and a password in the URL: keep one`,
		}},
		{"a split step with fewer terminals than partitions", `name: x
targets: {t: 'mysql://b@h/db'}
ladder: [4, 8]
cases:
  - {id: A, workload: sysbench/oltp_point_select, processes: 2}
  - id: B
    workload: tpcc
    warehouses: 6
    processes: 2
  - {id: C, workload: tpcc, warehouses: 4, processes: 2}
`, []string{
			`p.yaml:9: case "B": ladder step 4: partition 0/2: 4 terminal(s) leave warehouses without a terminal; use at least one terminal per warehouse (6)`,
		}},
		{"option shapes and not yaml", "name: x\ntargets: {t: 'mysql://b@h/db'}\ndefaults: {workload: tpcc, mix: [[1]]}\ncases: [{id: A}]\n", []string{
			`p.yaml:3: defaults: option "mix": list items must be single values`,
		}},
		{"invalid yaml", "name: [x\n", []string{
			`p.yaml: not valid YAML: yaml: line 1: did not find expected ',' or ']'`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParsePlan("p.yaml", []byte(tc.src))
			var pe *PlanError
			if !errors.As(err, &pe) {
				t.Fatalf("want *PlanError, got %v", err)
			}
			var got []string
			for _, p := range pe.Problems {
				got = append(got, p.String())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestPlanErrorMessage(t *testing.T) {
	e := &PlanError{File: "p.yaml", Problems: []Problem{{File: "p.yaml", Line: 3, Msg: "a"}, {File: "p.yaml", Msg: "b"}}}
	if got := e.Error(); got != "invalid plan p.yaml: 2 problems\n  p.yaml:3: a\n  p.yaml: b" {
		t.Fatalf("%q", got)
	}
}
