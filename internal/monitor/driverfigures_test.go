package monitor

import (
	"net"
	"strings"
	"testing"

	"benchpress/internal/results"
)

// TestTargetHosts: the hosts of redacted target URLs, with and without
// user-info, ports, IPv6 brackets, several hosts, a Unix socket.
func TestTargetHosts(t *testing.T) {
	tests := []struct{ url, want string }{
		{"postgres://bench:***@127.0.0.1:5432/bp", "127.0.0.1"},
		{"postgres://localhost:5432/bp", "localhost"},
		{"mysql://10.0.0.5:3306/bp?tls=false", "10.0.0.5"},
		{"mysql://u:***@db-1:3306,db-2:3306/bp", "db-1,db-2"},
		{"postgres://[::1]:5432/bp", "::1"},
		{"mysql://u@/bp?socket=/run/mysqld/mysqld.sock", ""},
		{"sqlite:///tmp/x.db", ""},
		{"no scheme", ""},
	}
	for _, tc := range tests {
		if got := strings.Join(results.TargetHosts(tc.url), ","); got != tc.want {
			t.Errorf("TargetHosts(%q) = %q, want %q", tc.url, got, tc.want)
		}
	}
}

// TestHostIsLocal: loopback, localhost and a Unix socket are local by the
// result alone; this machine's own address by its interfaces; another
// machine's address or name is not.
func TestHostIsLocal(t *testing.T) {
	own := []net.IP{net.ParseIP("10.1.2.3")}
	tests := []struct {
		host string
		want bool
	}{
		{"", true}, {"localhost", true}, {"LOCALHOST", true}, {"127.0.0.1", true}, {"127.8.9.1", true}, {"::1", true},
		{"10.1.2.3", true}, {"10.1.2.4", false}, {"db-1", false},
	}
	for _, tc := range tests {
		if got := results.HostIsLoopback(tc.host) || hostIsOwn(tc.host, own); got != tc.want {
			t.Errorf("local(%q) = %v, want %v", tc.host, got, tc.want)
		}
	}
}

// TestTargetIsLocalWithoutUser: a URL without user-info (no '@' in the
// redacted form) naming localhost is local (it used to be taken as remote).
func TestTargetIsLocalWithoutUser(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want bool
	}{
		{"postgres://localhost:5432/bp", true},
		{"postgres://127.0.0.1:5432/bp", true},
		{"mysql://u:***@127.0.0.1:3306/bp", true},
		{"mysql://u:***@192.0.2.10:3306/bp", false},
	} {
		run := &results.Run{Target: tc.url, TargetKind: "postgres"}
		if got := TargetIsLocal(run); got != tc.want {
			t.Errorf("TargetIsLocal(%q) = %v, want %v", tc.url, got, tc.want)
		}
	}
}
