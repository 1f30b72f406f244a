package registry

import (
	"testing"

	"github.com/spf13/pflag"
)

// OnOff takes its value as the next word or after '=' (the docs' and
// sysbench's --auto-inc off); a bare flag is refused, never read as on.
func TestOnOffTakesAValue(t *testing.T) {
	tests := []struct {
		args    []string
		want    bool
		wantErr bool
	}{
		{[]string{"--auto-inc", "off"}, false, false},
		{[]string{"--auto-inc=on"}, true, false},
		{[]string{"--auto-inc", "yes", "--threads", "8"}, true, false},
		{[]string{"--auto-inc"}, true, true},
		{[]string{"--auto-inc=maybe"}, true, true},
	}
	for _, tc := range tests {
		b := true
		fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
		fs.Var(OnOff{&b}, "auto-inc", "")
		fs.Int("threads", 1, "")
		err := fs.Parse(tc.args)
		if (err != nil) != tc.wantErr || (err == nil && b != tc.want) {
			t.Errorf("%q: value %v, error %v; want %v, error %v", tc.args, b, err, tc.want, tc.wantErr)
		}
	}
}
