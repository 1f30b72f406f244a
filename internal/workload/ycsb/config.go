package ycsb

import (
	"errors"
	"fmt"
	"strconv"
)

// Operation ids, in Ops() order, and their Java measurement names.
const (
	OpRead = iota
	OpUpdate
	OpInsert
	OpScan
	OpReadModifyWrite
	numOps
)

var (
	opNames     = []string{"read", "update", "insert", "scan", "read_modify_write"}
	opJavaNames = []string{"READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE"}
)

// Config is the typed, validated form of Props with CoreWorkload's defaults
// (§3.3).
type Config struct {
	Table                  string // usertable
	RecordCount            int64  // 0 in Java code; the workload files say 1000
	OperationCount         int64  // 0 = not set (run by time); sizes zipfian's expected new keys
	InsertStart            int64  // 0
	InsertCount            int64  // recordcount − insertstart
	FieldCount             int    // 10
	FieldLength            int    // 100
	MinFieldLength         int    // 1
	FieldLengthDist        string // constant
	FieldPrefix            string // field (column names are upper-cased: FIELD0..)
	ReadAllFields          bool   // true
	WriteAllFields         bool   // false
	Proportions            [numOps]float64
	RequestDistribution    string  // uniform (the workload files say zipfian/latest)
	MinScanLength          int64   // 1
	MaxScanLength          int64   // 1000
	ScanLengthDistribution string  // uniform
	Ordered                bool    // insertorder=ordered (default hashed)
	ZeroPadding            int     // 1
	HotspotDataFraction    float64 // 0.2
	HotspotOpnFraction     float64 // 0.8
	Seed                   uint64
}

// ParseConfig resolves p over the defaults, returning every problem at once.
func ParseConfig(p Props) (Config, error) {
	c := Config{
		Table: "usertable", FieldCount: 10, FieldLength: 100, MinFieldLength: 1,
		FieldLengthDist: "constant", FieldPrefix: "field", ReadAllFields: true,
		Proportions:         [numOps]float64{OpRead: 0.95, OpUpdate: 0.05},
		RequestDistribution: "uniform", MinScanLength: 1, MaxScanLength: 1000,
		ScanLengthDistribution: "uniform", ZeroPadding: 1,
		HotspotDataFraction: 0.2, HotspotOpnFraction: 0.8,
	}
	var errs []error
	for k, v := range p {
		if err := checkProp(k, v); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return c, errors.Join(errs...)
	}
	i64 := func(k string, dst *int64) {
		if v, ok := p[k]; ok {
			*dst, _ = strconv.ParseInt(v, 10, 64)
		}
	}
	i32 := func(k string, dst *int) {
		var x int64 = int64(*dst)
		i64(k, &x)
		*dst = int(x)
	}
	f64 := func(k string, dst *float64) {
		if v, ok := p[k]; ok {
			*dst, _ = strconv.ParseFloat(v, 64)
		}
	}
	bl := func(k string, dst *bool) {
		if v, ok := p[k]; ok {
			*dst, _ = strconv.ParseBool(v)
		}
	}
	str := func(k string, dst *string) {
		if v, ok := p[k]; ok {
			*dst = v
		}
	}
	str("table", &c.Table)
	i64("recordcount", &c.RecordCount)
	i64("operationcount", &c.OperationCount)
	i64("insertstart", &c.InsertStart)
	c.InsertCount = c.RecordCount - c.InsertStart
	i64("insertcount", &c.InsertCount)
	i32("fieldcount", &c.FieldCount)
	i32("fieldlength", &c.FieldLength)
	i32("minfieldlength", &c.MinFieldLength)
	str("fieldlengthdistribution", &c.FieldLengthDist)
	str("fieldnameprefix", &c.FieldPrefix)
	bl("readallfields", &c.ReadAllFields)
	bl("writeallfields", &c.WriteAllFields)
	f64("readproportion", &c.Proportions[OpRead])
	f64("updateproportion", &c.Proportions[OpUpdate])
	f64("insertproportion", &c.Proportions[OpInsert])
	f64("scanproportion", &c.Proportions[OpScan])
	f64("readmodifywriteproportion", &c.Proportions[OpReadModifyWrite])
	str("requestdistribution", &c.RequestDistribution)
	i64("minscanlength", &c.MinScanLength)
	i64("maxscanlength", &c.MaxScanLength)
	str("scanlengthdistribution", &c.ScanLengthDistribution)
	c.Ordered = p["insertorder"] == "ordered"
	i32("zeropadding", &c.ZeroPadding)
	f64("hotspotdatafraction", &c.HotspotDataFraction)
	f64("hotspotopnfraction", &c.HotspotOpnFraction)
	var seed int64
	i64("seed", &seed)
	c.Seed = uint64(seed)
	return c, c.validate()
}

func (c *Config) validate() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if !validIdent(c.Table) {
		bad("table %q is not a plain identifier", c.Table)
	}
	if !validIdent(c.FieldPrefix) {
		bad("fieldnameprefix %q is not a plain identifier", c.FieldPrefix)
	}
	if c.RecordCount < 0 || c.OperationCount < 0 || c.InsertStart < 0 || c.InsertCount < 0 {
		bad("recordcount, operationcount, insertstart and insertcount must be >= 0")
	}
	if c.InsertStart+c.InsertCount > c.RecordCount {
		bad("insertstart (%d) + insertcount (%d) exceeds recordcount (%d)", c.InsertStart, c.InsertCount, c.RecordCount)
	}
	if c.FieldCount < 1 || c.FieldCount > 1000 {
		bad("fieldcount must be in [1, 1000] (got %d)", c.FieldCount)
	}
	if c.FieldLength < 1 || c.MinFieldLength < 1 || c.MinFieldLength > c.FieldLength {
		bad("need 1 <= minfieldlength (%d) <= fieldlength (%d)", c.MinFieldLength, c.FieldLength)
	}
	var sum float64
	for i, v := range c.Proportions {
		if v < 0 {
			bad("%sproportion must be >= 0 (got %g)", propName[i], v)
		}
		sum += v
	}
	if sum <= 0 {
		bad("the operation proportions sum to %g; at least one must be > 0", sum)
	}
	needKeys := c.Proportions[OpRead] + c.Proportions[OpUpdate] + c.Proportions[OpScan] + c.Proportions[OpReadModifyWrite]
	if needKeys > 0 && c.InsertCount < 1 {
		bad("read/update/scan/read-modify-write need records: recordcount - insertstart must be >= 1 (got insertcount %d)", c.InsertCount)
	}
	if c.MinScanLength < 1 || c.MinScanLength > c.MaxScanLength {
		bad("need 1 <= minscanlength (%d) <= maxscanlength (%d)", c.MinScanLength, c.MaxScanLength)
	}
	if c.ZeroPadding < 1 || c.ZeroPadding > 60 {
		bad("zeropadding must be in [1, 60] (got %d)", c.ZeroPadding)
	}
	if c.HotspotDataFraction < 0 || c.HotspotDataFraction > 1 || c.HotspotOpnFraction < 0 || c.HotspotOpnFraction > 1 {
		bad("hotspotdatafraction and hotspotopnfraction must be in [0, 1]")
	}
	return errors.Join(errs...)
}

var propName = [numOps]string{"read", "update", "insert", "scan", "readmodifywrite"}

func validIdent(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
