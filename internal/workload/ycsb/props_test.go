package ycsb

import (
	"strings"
	"testing"
)

func TestParseProperties(t *testing.T) {
	src := `# Yahoo! Cloud System Benchmark
! another comment
recordcount=1000
operationcount : 500
workload=site.ycsb.workloads.CoreWorkload
readallfields true
requestdistribution=\
  zipfian
mysql.host=127.0.0.1
`
	p, err := ParseProperties(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"recordcount": "1000", "operationcount": "500", "readallfields": "true", "requestdistribution": "zipfian", "mysql.host": "127.0.0.1"}
	for k, v := range want {
		if p[k] != v {
			t.Errorf("%s = %q, want %q", k, p[k], v)
		}
	}
	_, err = ParseProperties(strings.NewReader("recordcount=abc\nreqestdistribution=zipfian\nrequestdistribution=pareto\n"))
	if err == nil {
		t.Fatal("bad file accepted")
	}
	for _, s := range []string{"line 1", "line 2", "line 3"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not mention %s", err, s)
		}
	}
}

func TestSet(t *testing.T) {
	p := Props{}
	cases := []struct {
		kv string
		ok bool
	}{
		{"recordcount=10", true},
		{"readproportion=0.5", true},
		{"insertorder=ordered", true},
		{"insertorder=random", false},
		{"fieldcount=ten", false},
		{"nosuchprop=1", false},
		{"mysql.host=db", true},
		{"noequals", false},
		{"dataintegrity=false", true},
		{"dataintegrity=true", false},
		{"core_workload_insertion_retry_limit=0", true},
		{"core_workload_insertion_retry_limit=5", false}, // the load does not retry: refused, not ignored
		{"core_workload_insertion_retry_interval=3", true},
	}
	for _, c := range cases {
		if err := p.Set(c.kv); (err == nil) != c.ok {
			t.Errorf("Set(%q) = %v, want ok=%v", c.kv, err, c.ok)
		}
	}
}

// Java YCSB workload files (reference §3.4).
func TestBuiltinWorkloads(t *testing.T) {
	cases := []struct {
		name    string
		props   [numOps]float64
		dist    string
		maxScan int64
	}{
		{"a", [numOps]float64{0.5, 0.5, 0, 0, 0}, "zipfian", 1000},
		{"b", [numOps]float64{0.95, 0.05, 0, 0, 0}, "zipfian", 1000},
		{"c", [numOps]float64{1, 0, 0, 0, 0}, "zipfian", 1000},
		{"d", [numOps]float64{0.95, 0, 0.05, 0, 0}, "latest", 1000},
		{"e", [numOps]float64{0, 0, 0.05, 0.95, 0}, "zipfian", 100},
		{"f", [numOps]float64{0.5, 0, 0, 0, 0.5}, "zipfian", 1000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Properties("workload" + c.name)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := ParseConfig(p)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Proportions != c.props || cfg.RequestDistribution != c.dist || cfg.MaxScanLength != c.maxScan {
				t.Errorf("got %v %s %d", cfg.Proportions, cfg.RequestDistribution, cfg.MaxScanLength)
			}
			if cfg.RecordCount != 1000 || cfg.OperationCount != 1000 || !cfg.ReadAllFields || cfg.FieldCount != 10 || cfg.FieldLength != 100 || cfg.Ordered {
				t.Errorf("common settings wrong: %+v", cfg)
			}
		})
	}
	if _, err := Properties("g"); err == nil {
		t.Error("workload g accepted")
	}
}

func TestNewValidatesAllAtOnce(t *testing.T) {
	p := Props{"recordcount": "10", "insertstart": "5", "insertcount": "10", "minscanlength": "5", "maxscanlength": "2", "readproportion": "-1"}
	_, err := New(p)
	if err == nil {
		t.Fatal("accepted")
	}
	for _, s := range []string{"insertcount", "maxscanlength", "readproportion"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not mention %s", err, s)
		}
	}
}
