//go:build linux

package mywire

import (
	"net"
	"testing"
)

// TestRawIOSelection checks which I/O path New picks: raw system calls for
// a socket that exposes its descriptor (TCP), the net.Conn itself for
// anything else (net.Pipe).
func TestRawIOSelection(t *testing.T) {
	tests := []struct {
		transport string
		raw       bool
	}{
		{"tcp", true},
		{"pipe", false},
	}
	for _, tt := range tests {
		c, srv := startFakeOn(t, tt.transport, capsOK, func(s *fakeServer) {})
		_, raw := c.io.(*rawIO)
		if raw != tt.raw || (!raw && c.io != net.Conn(srv.cli)) {
			t.Errorf("%s: io is %T, want raw=%v", tt.transport, c.io, tt.raw)
		}
		srv.wait()
	}
}
