package registry

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// OnOff is a bool flag value that also accepts sysbench's on/off. It
// always takes a value (--auto-inc off, --skip-trx=on), as sysbench's
// options do: a bare --flag is refused ("flag needs an argument"), never
// read as on with the next word taken for an argument.
type OnOff struct{ B *bool }

func (v OnOff) String() string {
	if v.B != nil && *v.B {
		return "on"
	}
	return "off"
}

// Set accepts on/off, true/false, 1/0, yes/no, t/f.
func (v OnOff) Set(s string) error {
	switch strings.ToLower(s) {
	case "on", "true", "1", "yes", "t":
		*v.B = true
	case "off", "false", "0", "no", "f":
		*v.B = false
	default:
		return fmt.Errorf("want on or off")
	}
	return nil
}

// Type names the value in --help.
func (OnOff) Type() string { return "on|off" }

// Seconds is a duration flag that takes whole seconds like sysbench (--time
// 60) or a Go duration (--duration 1m30s); aliases may share one.
type Seconds struct{ D *time.Duration }

func (v Seconds) String() string {
	if v.D == nil {
		return "0"
	}
	if *v.D%time.Second == 0 {
		return strconv.FormatInt(int64(*v.D/time.Second), 10)
	}
	return v.D.String()
}

// Set parses seconds (60, 0.5) or a Go duration (1m30s).
func (v Seconds) Set(s string) error {
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		*v.D = time.Duration(n * float64(time.Second))
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("want seconds (60) or a duration (1m30s)")
	}
	*v.D = d
	return nil
}

// Type names the value in --help.
func (Seconds) Type() string { return "seconds" }

// UnderscoreToDash lets sysbench's spellings (--table_size) and plan keys
// (max_retries) name the dashed flags.
func UnderscoreToDash(_ *pflag.FlagSet, name string) pflag.NormalizedName {
	return pflag.NormalizedName(strings.ReplaceAll(name, "_", "-"))
}
