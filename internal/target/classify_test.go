package target

import (
	"context"
	"database/sql/driver"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want Class
	}{
		{"nil", nil, ClassNone},
		{"mysql deadlock", &mysql.MySQLError{Number: 1213}, ClassDeadlock},
		{"mysql lock wait", &mysql.MySQLError{Number: 1205}, ClassLockTimeout},
		{"mysql dup wrapped", fmt.Errorf("new order: %w", &mysql.MySQLError{Number: 1062}), ClassConstraint},
		{"mysql fk", &mysql.MySQLError{Number: 1452}, ClassConstraint},
		{"mysql not null", &mysql.MySQLError{Number: 1048}, ClassConstraint},
		{"mysql check", &mysql.MySQLError{Number: 3819}, ClassConstraint},
		{"mariadb killed", &mysql.MySQLError{Number: 1927}, ClassLostConnection},
		{"mysql shutdown", &mysql.MySQLError{Number: 1053}, ClassLostConnection},
		{"mysql syntax", &mysql.MySQLError{Number: 1064}, ClassOther},
		{"tidb write conflict", &mysql.MySQLError{Number: 9007, Message: "Write conflict, txnStartTS=1"}, ClassSerialization},
		{"tidb for update conflict", &mysql.MySQLError{Number: 8002}, ClassSerialization},
		{"tidb commit retry", &mysql.MySQLError{Number: 8022}, ClassSerialization},
		{"tidb schema changed", fmt.Errorf("payment: %w", &mysql.MySQLError{Number: 8028, Message: "Information schema is changed"}), ClassSerialization},
		{"cockroach restart", &pgconn.PgError{Code: "40001", Message: "restart transaction: TransactionRetryWithProtoRefreshError"}, ClassSerialization},
		{"mysql invalid conn", mysql.ErrInvalidConn, ClassLostConnection},
		{"bad conn", driver.ErrBadConn, ClassLostConnection},
		{"eof", io.EOF, ClassLostConnection},
		{"unexpected eof", fmt.Errorf("read: %w", io.ErrUnexpectedEOF), ClassLostConnection},
		{"reset", &net.OpError{Op: "read", Err: syscall.ECONNRESET}, ClassLostConnection},
		{"broken pipe text", fmt.Errorf("write tcp: broken pipe"), ClassLostConnection},
		{"pg deadlock", &pgconn.PgError{Code: "40P01"}, ClassDeadlock},
		{"pg serialization", &pgconn.PgError{Code: "40001"}, ClassSerialization},
		{"pg lock timeout", &pgconn.PgError{Code: "55P03"}, ClassLockTimeout},
		{"pg unique", &pgconn.PgError{Code: "23505"}, ClassConstraint},
		{"pg fk", &pgconn.PgError{Code: "23503"}, ClassConstraint},
		{"pg admin shutdown", &pgconn.PgError{Code: "57P01"}, ClassLostConnection},
		{"pg connection failure", &pgconn.PgError{Code: "08006"}, ClassLostConnection},
		{"pg syntax", &pgconn.PgError{Code: "42601"}, ClassOther},
		{"pg conn closed", fmt.Errorf("x: %w", pgconn.ErrConnClosed), ClassLostConnection},
		{"context canceled", context.Canceled, ClassOther},
		{"deadline", fmt.Errorf("q: %w", context.DeadlineExceeded), ClassOther},
		{"plain", fmt.Errorf("boom"), ClassOther},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Classify(tt.err); got != tt.want {
				t.Fatalf("Classify(%v) = %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}

func TestClassifySQLiteCodes(t *testing.T) {
	tests := []struct {
		code int
		want Class
	}{
		{5, ClassSerialization}, {517, ClassSerialization}, {6, ClassSerialization},
		{19, ClassConstraint}, {2067, ClassConstraint}, {1, ClassOther},
	}
	for _, tt := range tests {
		if got := classifySQLite(tt.code); got != tt.want {
			t.Errorf("classifySQLite(%d) = %v, want %v", tt.code, got, tt.want)
		}
	}
}

func TestClassifyLimitsAndPrivileges(t *testing.T) {
	tests := []struct {
		name      string
		err       error
		want      Class
		code      string
		fatal     bool
		wantsHint bool
	}{
		{"mysql prepared limit", fmt.Errorf("prepare: %w", &mysql.MySQLError{Number: 1461}), ClassResourceLimit, "1461", true, true},
		{"mysql too many conns", &mysql.MySQLError{Number: 1040}, ClassResourceLimit, "1040", true, true},
		{"mysql user limit", &mysql.MySQLError{Number: 1226}, ClassResourceLimit, "1226", true, true},
		{"mysql table denied", &mysql.MySQLError{Number: 1142}, ClassPermission, "1142", true, true},
		{"mysql db denied", &mysql.MySQLError{Number: 1044}, ClassPermission, "1044", true, true},
		{"pg insufficient privilege", &pgconn.PgError{Code: "42501"}, ClassPermission, "42501", true, true},
		{"pg too many connections", &pgconn.PgError{Code: "53300"}, ClassResourceLimit, "53300", true, true},
		{"pg out of memory", &pgconn.PgError{Code: "53200"}, ClassResourceLimit, "53200", true, true},
		{"mysql deadlock", &mysql.MySQLError{Number: 1213}, ClassDeadlock, "1213", false, false},
		{"transport", io.EOF, ClassLostConnection, "", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Classify(tt.err)
			if c != tt.want || c.Fatal() != tt.fatal {
				t.Fatalf("Classify = %v (fatal %v), want %v (fatal %v)", c, c.Fatal(), tt.want, tt.fatal)
			}
			if got := ErrorCode(tt.err); got != tt.code {
				t.Fatalf("ErrorCode = %q, want %q", got, tt.code)
			}
			if got := Hint(tt.err); (got != "") != tt.wantsHint {
				t.Fatalf("Hint = %q, want a hint: %v", got, tt.wantsHint)
			}
		})
	}
}
