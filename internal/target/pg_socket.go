package target

import (
	"context"
	"io"
	"net"

	"github.com/jackc/pgx/v5/pgconn"

	"benchpress/internal/target/mywire"
)

// pgSocket is the socket pgx talks through: reads and writes use raw system
// calls on the descriptor (mywire.RawIO, as the MySQL paths do) instead of
// net.Conn's, which enter the scheduler's system-call state. A write to a
// server on the same machine runs the server's TCP receive path and can take
// long enough for the runtime to hand the goroutine's processor to another
// thread: measured on PostgreSQL oltp_point_select at 1-2 threads, pgx over
// net.Conn made 2-3 client context switches per query (sysbench: 1.0) and
// used about twice sysbench's client CPU per query (docs/benchmarks.md).
//
// Reads and writes keep separate state: pgx may read in a background
// goroutine while it writes. Deadlines, Close and everything else go to the
// net.Conn, so pgx's and the statement guard's deadline-based interruption
// still apply.
type pgSocket struct {
	net.Conn
	r, w io.ReadWriter
}

func (s *pgSocket) Read(p []byte) (int, error)  { return s.r.Read(p) }
func (s *pgSocket) Write(p []byte) (int, error) { return s.w.Write(p) }

// rawDialFunc wraps dial so that the connections it opens are blocking
// sockets when mode says so (sockio: raw system calls already), else
// pgSockets.
func rawDialFunc(dial pgconn.DialFunc, mode *socketMode) pgconn.DialFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		nc, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		b, err := mode.wrap(nc)
		if err != nil || b != nc {
			return b, err
		}
		return &pgSocket{Conn: nc, r: mywire.RawIO(nc), w: mywire.RawIO(nc)}, nil
	}
}
