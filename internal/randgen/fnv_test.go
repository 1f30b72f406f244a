package randgen

import (
	"strconv"
	"testing"
)

// Reference §3.2 test vectors.
func TestFNVHash64Vectors(t *testing.T) {
	cases := []struct {
		keynum     int64
		java, goys string
	}{
		{0, "user6284781860667377211", "user6284781860667377211"},
		{1, "user8517097267634966620", "user6284782960179005422"},
		{2, "user1820151046732198393", "user6284784059690633633"},
		{1000000, "user1011632231655643464", "user2740105236383194386"},
	}
	for _, c := range cases {
		t.Run(strconv.FormatInt(c.keynum, 10), func(t *testing.T) {
			if got := "user" + strconv.FormatInt(FNVHash64(c.keynum), 10); got != c.java {
				t.Errorf("FNVHash64: got %s, want %s", got, c.java)
			}
			if got := "user" + strconv.FormatInt(GoYCSBHash64(c.keynum), 10); got != c.goys {
				t.Errorf("GoYCSBHash64: got %s, want %s", got, c.goys)
			}
		})
	}
}
