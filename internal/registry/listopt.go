package registry

import (
	"strings"

	"github.com/spf13/pflag"
)

// ListSep joins the items of a list-valued plan option (a YAML list or
// mapping) in the option's string form. It is the ASCII unit separator, a
// byte no option value holds, so that an item may itself contain commas.
const ListSep = "\x1f"

// JoinList is the string form of a list-valued plan option.
func JoinList(items []string) string { return strings.Join(items, ListSep) }

// Items returns the items of a plan option's string form: one for a
// scalar, one per entry for a list.
func Items(value string) []string { return strings.Split(value, ListSep) }

// SplitList returns the values to set on flag f for a plan option: for a
// repeatable flag (a pflag Array or Slice type) one per list item, set one
// by one as repeated command-line flags would be; for any other flag, or
// an unknown one (f nil), the value whole. A plain scalar is one value, as
// on the command line (a Slice flag then splits it at commas itself, an
// Array flag keeps it whole).
func SplitList(f *pflag.Flag, value string) []string {
	if f == nil || !isListFlag(f) {
		return []string{value}
	}
	return Items(value)
}

// isListFlag reports whether f is repeatable (a pflag Array or Slice type).
func isListFlag(f *pflag.Flag) bool {
	t := f.Value.Type()
	return strings.HasSuffix(t, "Array") || strings.HasSuffix(t, "Slice")
}
