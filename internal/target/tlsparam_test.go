package target

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

// noTLSServer listens on 127.0.0.1 and answers every connection the way a
// server without TLS does: a MySQL handshake without the SSL capability,
// or 'N' to PostgreSQL's SSL request.
func noTLSServer(t *testing.T, kind Kind) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_ = c.SetDeadline(time.Now().Add(10 * time.Second))
				switch kind {
				case MySQL:
					// Handshake v10: version, server version, connection
					// id, auth data, filler, capabilities (protocol 4.1
					// and secure connection, no SSL), charset, status,
					// upper capabilities, auth data length, reserved.
					p := []byte{10}
					p = append(p, "5.5.5-10.11.0-MariaDB\x00"...)
					p = append(p, 1, 0, 0, 0)
					p = append(p, "abcdefgh"...)
					p = append(p, 0)
					p = binary.LittleEndian.AppendUint16(p, 0x0200|0x8000)
					p = append(p, 33, 2, 0, 0x08, 0, 21)
					p = append(p, make([]byte, 10)...)
					p = append(p, "ijklmnopqrst\x00mysql_native_password\x00"...)
					hdr := []byte{byte(len(p)), byte(len(p) >> 8), byte(len(p) >> 16), 0}
					_, _ = c.Write(append(hdr, p...))
				case Postgres:
					req := make([]byte, 8)
					if _, err := io.ReadFull(c, req); err != nil {
						return
					}
					_, _ = c.Write([]byte{'N'})
				}
				_, _ = io.Copy(io.Discard, c)
			}()
		}
	}()
	return ln.Addr().String()
}

// TestTLSParamTheServerDoesNotOffer: a URL that demands TLS from a server
// without it is a configuration error (ConnectBadParams, exit code 2)
// whose message names the parameter.
func TestTLSParamTheServerDoesNotOffer(t *testing.T) {
	for _, tc := range []struct {
		kind  Kind
		param string
	}{
		{MySQL, "tls=true"},
		{MySQL, "tls=skip-verify"},
		{Postgres, "sslmode=require"},
		{Postgres, "sslmode=verify-full"},
	} {
		t.Run(string(tc.kind)+"/"+tc.param, func(t *testing.T) {
			addr := noTLSServer(t, tc.kind)
			k, v, _ := strings.Cut(tc.param, "=")
			tg := &Target{Kind: tc.kind, User: "bench", Password: "secretpw", Endpoints: []string{addr}, Database: "bp", Params: map[string]string{k: v}}
			c, err := NewConnector(tg, Options{ConnectTimeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			_, err = c.Connect(ctx)
			var ce *ConnectError
			if !errors.As(err, &ce) {
				t.Fatalf("want *ConnectError, got %T %v", err, err)
			}
			if ce.Kind != ConnectBadParams {
				t.Errorf("kind %v, want bad_parameter (%v)", ce.Kind, err)
			}
			if !strings.Contains(err.Error(), tc.param) || !strings.Contains(err.Error(), addr) {
				t.Errorf("message does not name %s and the endpoint: %v", tc.param, err)
			}
			t.Log(err)
		})
	}
}
