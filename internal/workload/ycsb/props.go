// Package ycsb implements YCSB's CoreWorkload (brianfrankcooper/YCSB
// core/.../workloads/CoreWorkload.java) over SQL, as the JDBC binding does:
// the usertable schema, Java-compatible keys (fnvhash64), the request
// distributions, the insert-key acknowledgement window, the load phase and
// the per-operation return codes. See shared/reference/workloads.md Part 3;
// section numbers below refer to it.
//
// The built-in workloads a–f are Java YCSB's files (§3.4): zipfian requests
// for A, B, C, E and F, latest for D, maxscanlength=100 for E. go-ycsb ships
// different files (uniform for A, B, C, E, F and maxscanlength=1 for E), so
// its "workload A" is not this one; pass requestdistribution=uniform to
// reproduce it.
package ycsb

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Props holds YCSB properties by their Java names (e.g. "recordcount").
type Props map[string]string

// propKind is how a core property's value is validated.
type propKind uint8

const (
	pInt propKind = iota
	pFloat
	pBool
	pString
	pEnum
)

type propSpec struct {
	kind   propKind
	values []string // for pEnum
}

// coreProps are the CoreWorkload properties benchpress implements (§3.3).
var coreProps = map[string]propSpec{
	"table":                     {kind: pString},
	"recordcount":               {kind: pInt},
	"operationcount":            {kind: pInt},
	"insertstart":               {kind: pInt},
	"insertcount":               {kind: pInt},
	"fieldcount":                {kind: pInt},
	"fieldlength":               {kind: pInt},
	"minfieldlength":            {kind: pInt},
	"fieldlengthdistribution":   {kind: pEnum, values: []string{"constant", "uniform", "zipfian"}},
	"fieldnameprefix":           {kind: pString},
	"readallfields":             {kind: pBool},
	"writeallfields":            {kind: pBool},
	"readproportion":            {kind: pFloat},
	"updateproportion":          {kind: pFloat},
	"insertproportion":          {kind: pFloat},
	"scanproportion":            {kind: pFloat},
	"readmodifywriteproportion": {kind: pFloat},
	"requestdistribution":       {kind: pEnum, values: []string{"uniform", "zipfian", "latest", "hotspot"}},
	"minscanlength":             {kind: pInt},
	"maxscanlength":             {kind: pInt},
	"scanlengthdistribution":    {kind: pEnum, values: []string{"uniform", "zipfian"}},
	"insertorder":               {kind: pEnum, values: []string{"hashed", "ordered"}},
	"zeropadding":               {kind: pInt},
	"hotspotdatafraction":       {kind: pFloat},
	"hotspotopnfraction":        {kind: pFloat},
	"seed":                      {kind: pInt}, // benchpress: generator seed (0 = time-based)
}

// passProps are accepted and kept but not used by the workload itself
// (client options the CLI may read, or Java-only settings). A non-empty
// value is the only one accepted: the setting's "off", since benchpress
// does not do what another value asks (dataintegrity checks; the load's
// insertion retries, §3.7: a failed insert ends the load).
var passProps = map[string]string{
	"workload": "", "threadcount": "", "target": "", "maxexecutiontime": "",
	"measurementtype": "", "dataintegrity": "false", "exporter": "", "status.interval": "",
	"core_workload_insertion_retry_limit": "0", "core_workload_insertion_retry_interval": "",
}

// PropertyNames lists the core properties benchpress understands.
func PropertyNames() []string { return slices.Sorted(maps.Keys(coreProps)) }

// Set applies one "name=value" override (the -p flag), validating the name
// and the value's type. Unknown names without a dot are rejected as typos;
// dotted names (binding settings such as mysql.host) are kept and ignored.
func (p Props) Set(kv string) error {
	k, v, ok := strings.Cut(kv, "=")
	if !ok {
		return fmt.Errorf("property %q: want name=value", kv)
	}
	return p.set(strings.TrimSpace(k), strings.TrimSpace(v))
}

func (p Props) set(k, v string) error {
	if err := checkProp(k, v); err != nil {
		return err
	}
	p[k] = v
	return nil
}

func checkProp(k, v string) error {
	spec, ok := coreProps[k]
	if !ok {
		if only, known := passProps[k]; known {
			if only != "" && v != only {
				return fmt.Errorf("property %s=%s is not supported (only %s)", k, v, only)
			}
			return nil
		}
		if strings.Contains(k, ".") {
			return nil
		}
		return fmt.Errorf("unknown property %q (known: %s)", k, strings.Join(PropertyNames(), ", "))
	}
	var err error
	switch spec.kind {
	case pInt:
		_, err = strconv.ParseInt(v, 10, 64)
	case pFloat:
		_, err = strconv.ParseFloat(v, 64)
	case pBool:
		_, err = strconv.ParseBool(v)
	case pEnum:
		if !slices.Contains(spec.values, v) {
			err = fmt.Errorf("want one of %s", strings.Join(spec.values, ", "))
		}
	}
	if err != nil {
		return fmt.Errorf("property %s=%q: %w", k, v, err)
	}
	return nil
}

// ParseProperties reads a Java properties file (key=value, key:value or
// "key value"; '#' and '!' comment lines; a trailing backslash continues a
// line), validating every entry; it returns all problems at once.
func ParseProperties(r io.Reader) (Props, error) {
	p := Props{}
	var errs []string
	sc := bufio.NewScanner(r)
	var cont strings.Builder
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := strings.TrimSpace(sc.Text())
		if cont.Len() == 0 && (line == "" || line[0] == '#' || line[0] == '!') {
			continue
		}
		if strings.HasSuffix(line, `\`) && !strings.HasSuffix(line, `\\`) {
			cont.WriteString(strings.TrimSuffix(line, `\`))
			continue
		}
		cont.WriteString(line)
		line = cont.String()
		cont.Reset()
		i := strings.IndexAny(line, "=: \t")
		k, v := line, ""
		if i >= 0 {
			k = line[:i]
			v = strings.TrimLeft(line[i+1:], " \t")
			if line[i] == ' ' || line[i] == '\t' {
				v = strings.TrimLeft(strings.TrimPrefix(strings.TrimPrefix(v, "="), ":"), " \t")
			}
		}
		if err := p.set(k, strings.TrimSpace(v)); err != nil {
			errs = append(errs, fmt.Sprintf("line %d: %v", lineNo, err))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("ycsb properties: %s", strings.Join(errs, "; "))
	}
	return p, nil
}

// Clone returns a copy.
func (p Props) Clone() Props { return maps.Clone(p) }

// Merge returns p overlaid with q.
func (p Props) Merge(q Props) Props {
	out := p.Clone()
	if out == nil {
		out = Props{}
	}
	maps.Copy(out, q)
	return out
}
