package target

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
)

// A COMMIT that lost its session without a server reply says its outcome
// is unknown and stays a lost connection; a server's error (which says
// what became of the transaction) passes unchanged.
func TestCommitLost(t *testing.T) {
	timeout := fmt.Errorf("read tcp 127.0.0.1:1->127.0.0.1:3306: %w", os.ErrDeadlineExceeded)
	for _, tc := range []struct {
		name    string
		err     error
		unknown bool
		class   Class
	}{
		{"nil", nil, false, ClassNone},
		{"socket deadline", &netTimeout{timeout}, true, ClassLostConnection},
		{"reset", fmt.Errorf("read: %w", syscall.ECONNRESET), true, ClassLostConnection},
		{"eof", io.ErrUnexpectedEOF, true, ClassLostConnection},
		{"past EndTxTimeout on the driver path", fmt.Errorf("commit: %w", context.DeadlineExceeded), true, ClassLostConnection},
		{"killed by the server", &mysql.MySQLError{Number: 1927, Message: "Connection was killed"}, false, ClassLostConnection},
		{"administrator shutdown", &pgconn.PgError{Code: "57P01", Message: "terminating connection due to administrator command"}, false, ClassLostConnection},
		{"deadlock", &mysql.MySQLError{Number: 1213, Message: "Deadlock found"}, false, ClassDeadlock},
		{"serialization", &pgconn.PgError{Code: "40001", Message: "could not serialize access"}, false, ClassSerialization},
	} {
		got := commitLost(tc.err)
		var cl *CommitLostError
		if errors.As(got, &cl) != tc.unknown {
			t.Errorf("%s: %v: outcome unknown %v, want %v", tc.name, got, !tc.unknown, tc.unknown)
		}
		if c := Classify(got); c != tc.class {
			t.Errorf("%s: class %v, want %v", tc.name, c, tc.class)
		}
		if tc.unknown && (!strings.HasPrefix(got.Error(), "outcome unknown") || !strings.HasSuffix(got.Error(), tc.err.Error()) || !errors.Is(got, tc.err)) {
			t.Errorf("%s: %q does not say the outcome is unknown and keep %q", tc.name, got, tc.err)
		}
		if !tc.unknown && got != tc.err {
			t.Errorf("%s: %v changed to %v", tc.name, tc.err, got)
		}
	}
}

// netTimeout is a net.Error timeout, as a socket deadline returns it.
type netTimeout struct{ error }

func (netTimeout) Timeout() bool    { return true }
func (netTimeout) Temporary() bool  { return false }
func (e *netTimeout) Unwrap() error { return e.error }
