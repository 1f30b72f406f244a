package target

import "testing"

// TestConnLimitShortfall: need sessions fit beside the ones open (the
// reading session not counted), per server and per user.
func TestConnLimitShortfall(t *testing.T) {
	server := ConnLimit{Server: 151, ServerDesc: "max_connections 151", ServerInUse: 3}
	user := ConnLimit{Server: 100, ServerDesc: "max_connections 100", ServerInUse: 1, User: 4, UserDesc: "max_user_connections 4", UserInUse: 2}
	for _, c := range []struct {
		name string
		l    ConnLimit
		need int64
		want string
	}{
		{"fits exactly", server, 149, ""},
		{"one over", server, 150, "the server admits 151 (max_connections 151) and 2 other session(s) are open"},
		{"user cap fits", user, 3, ""},
		{"user cap", user, 4, "the user may open 4 (max_user_connections 4) and has 1 other session(s) open"},
		{"both", user, 200, "the server admits 100 (max_connections 100) and 0 other session(s) are open; the user may open 4 (max_user_connections 4) and has 1 other session(s) open"},
		{"unknown", ConnLimit{}, 5000, ""},
	} {
		if got := c.l.Shortfall(c.need); got != c.want {
			t.Errorf("%s: Shortfall(%d) = %q, want %q", c.name, c.need, got, c.want)
		}
	}
}
