package registry

import (
	"strings"

	"github.com/spf13/pflag"
)

// ListSep joins the elements of a list-valued plan option (a YAML list or
// mapping) in the option's string form. It is the ASCII unit separator, a
// byte no option value holds, so that an element may itself contain commas
// (a YCSB -p value such as fieldnames=a,b).
const ListSep = "\x1f"

// JoinList is the string form of a list-valued plan option.
func JoinList(elems []string) string { return strings.Join(elems, ListSep) }

// SplitList returns the elements of a plan option's string form: for a
// repeatable flag (a pflag Array or Slice type) one element per list item,
// set one by one as repeated command-line flags would be; for any other
// flag, or an unknown one (f nil), the value as a single element. A plain
// scalar is one element, as on the command line (a Slice flag then splits
// it at commas itself, an Array flag keeps it whole).
func SplitList(f *pflag.Flag, value string) []string {
	if f == nil || !IsListFlag(f) {
		return []string{value}
	}
	return strings.Split(value, ListSep)
}

// IsListFlag reports whether f is repeatable (a pflag Array or Slice type).
func IsListFlag(f *pflag.Flag) bool {
	t := f.Value.Type()
	return strings.HasSuffix(t, "Array") || strings.HasSuffix(t, "Slice")
}
