package ycsb

import (
	"fmt"
	"strings"
)

// builtin are Java YCSB's workloads/workloada..f (§3.4). Every file also
// sets recordcount=1000, operationcount=1000 and readallfields=true.
var builtin = map[string]string{
	"a": "readproportion=0.5 updateproportion=0.5 scanproportion=0 insertproportion=0 requestdistribution=zipfian",
	"b": "readproportion=0.95 updateproportion=0.05 scanproportion=0 insertproportion=0 requestdistribution=zipfian",
	"c": "readproportion=1 updateproportion=0 scanproportion=0 insertproportion=0 requestdistribution=zipfian",
	"d": "readproportion=0.95 updateproportion=0 scanproportion=0 insertproportion=0.05 requestdistribution=latest",
	"e": "readproportion=0 updateproportion=0 scanproportion=0.95 insertproportion=0.05 requestdistribution=zipfian maxscanlength=100 scanlengthdistribution=uniform",
	"f": "readproportion=0.5 updateproportion=0 scanproportion=0 insertproportion=0 readmodifywriteproportion=0.5 requestdistribution=zipfian",
}

// Workloads lists the built-in workload names.
func Workloads() []string { return []string{"a", "b", "c", "d", "e", "f"} }

// Properties returns the properties of built-in workload name ("a".."f",
// also "workloada".."workloadf").
func Properties(name string) (Props, error) {
	key := strings.TrimPrefix(strings.ToLower(name), "workload")
	spec, ok := builtin[key]
	if !ok {
		return nil, fmt.Errorf("unknown YCSB workload %q (want one of a, b, c, d, e, f)", name)
	}
	p := Props{"recordcount": "1000", "operationcount": "1000", "readallfields": "true", "workload": "site.ycsb.workloads.CoreWorkload"}
	for _, kv := range strings.Fields(spec) {
		if err := p.Set(kv); err != nil {
			panic(err)
		}
	}
	return p, nil
}
