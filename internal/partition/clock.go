package partition

import (
	"context"
	"fmt"
	"time"

	"benchpress/internal/target"
)

// Skew is this driver's clock against the database server's: Offset is
// server minus local (add it to a local instant to get the server's), RTT
// the round trip of the best sample; the estimate is off by at most RTT/2.
type Skew struct {
	Offset time.Duration
	RTT    time.Duration
}

// skewSamples is how many clock reads MeasureSkew takes; the one with the
// shortest round trip is kept (NTP's minimum-delay filter).
const skewSamples = 5

// serverClockSQL reads the server's current wall clock with microseconds as
// an integer number of microseconds since the Unix epoch (UTC), so no
// driver's time-zone handling is involved: MySQL/MariaDB NOW(6) (its
// UNIX_TIMESTAMP), PostgreSQL clock_timestamp() (not now(), which is the
// transaction start), SQLite the local clock (embedded: skew 0).
func serverClockSQL(k target.Kind) string {
	switch k {
	case target.MySQL:
		return "SELECT CAST(UNIX_TIMESTAMP(NOW(6)) * 1000000 AS SIGNED)"
	case target.Postgres:
		return "SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000 AS BIGINT)"
	}
	return ""
}

// MeasureSkew estimates the offset of the server's clock against the local
// one, RTT-corrected: for each sample, offset = server - (sent + RTT/2).
func MeasureSkew(ctx context.Context, conn target.Conn) (Skew, error) {
	q := serverClockSQL(conn.Kind())
	if q == "" {
		return Skew{}, nil // embedded database: same clock
	}
	best := Skew{RTT: -1}
	for range skewSamples {
		t0 := time.Now()
		var us int64
		if err := target.QueryRow(ctx, conn, q, []any{&us}); err != nil {
			return Skew{}, fmt.Errorf("read the server clock: %w", err)
		}
		rtt := time.Since(t0)
		mid := t0.Add(rtt / 2)
		off := time.UnixMicro(us).Sub(mid)
		if best.RTT < 0 || rtt < best.RTT {
			best = Skew{Offset: off, RTT: rtt}
		}
	}
	return best, nil
}
