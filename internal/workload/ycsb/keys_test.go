package ycsb

import "testing"

// Reference §3.2 vectors: Java YCSB keys.
func TestKeyName(t *testing.T) {
	cases := []struct {
		keynum  int64
		ordered bool
		pad     int
		want    string
	}{
		{0, false, 1, "user6284781860667377211"},
		{1, false, 1, "user8517097267634966620"},
		{2, false, 1, "user1820151046732198393"},
		{1000000, false, 1, "user1011632231655643464"},
		{42, true, 1, "user42"},
		{42, true, 6, "user000042"},
	}
	for _, c := range cases {
		cfg := Config{Ordered: c.ordered, ZeroPadding: c.pad}
		if got := cfg.KeyName(c.keynum); got != c.want {
			t.Errorf("KeyName(%d) = %s, want %s", c.keynum, got, c.want)
		}
	}
}
