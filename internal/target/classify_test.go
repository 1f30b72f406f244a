package target

import (
	"context"
	"database/sql/driver"
	"errors"
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
		{"mysql syntax 42000", &mysql.MySQLError{Number: 1064, SQLState: [5]byte{'4', '2', '0', '0', '0'}}, ClassOther},
		{"group replication conflict", &mysql.MySQLError{Number: 3101, SQLState: [5]byte{'4', '0', '0', '0', '0'}}, ClassSerialization},
		{"xa rollback deadlock", &mysql.MySQLError{Number: 1614}, ClassDeadlock},
		{"xa rollback timeout", &mysql.MySQLError{Number: 1613}, ClassLockTimeout},
		{"mysql idle session closed", &mysql.MySQLError{Number: 4031}, ClassLostConnection},
		{"proxysql hostgroup unreachable: the session stays", &mysql.MySQLError{Number: 9001, Message: "Max connect timeout reached while reaching hostgroup 0 after 10000ms"}, ClassOther},
		{"mysql old foreign key code", &mysql.MySQLError{Number: 1216}, ClassConstraint},
		{"mysql old foreign key parent code", &mysql.MySQLError{Number: 1217}, ClassConstraint},
		{"proxy link failure 08S01", &mysql.MySQLError{Number: 0, SQLState: [5]byte{'0', '8', 'S', '0', '1'}, Message: "Communications link failure"}, ClassLostConnection},
		{"proxy pool text wins over 08", &mysql.MySQLError{Number: 0, SQLState: [5]byte{'0', '8', 'S', '0', '1'}, Message: "Connection is not available, request timed out after 30000ms."}, ClassResourceLimit},
		{"tidb write conflict", &mysql.MySQLError{Number: 9007, Message: "Write conflict, txnStartTS=1"}, ClassSerialization},
		{"tidb for update conflict", &mysql.MySQLError{Number: 8002}, ClassSerialization},
		{"tidb stale write conflict", &mysql.MySQLError{Number: 8005, Message: "Write Conflict, txnStartTS is stale"}, ClassSerialization},
		{"proxy passes a pg deadlock as 0/40P01", &mysql.MySQLError{Number: 0, SQLState: [5]byte{'4', '0', 'P', '0', '1'}, Message: "deadlock detected"}, ClassDeadlock},
		{"ambiguous column under MySQL's generic 23000", &mysql.MySQLError{Number: 1052, SQLState: [5]byte{'2', '3', '0', '0', '0'}, Message: "Column 'id' in where clause is ambiguous"}, ClassOther},
		{"duplicate unique under 23000", &mysql.MySQLError{Number: 1169, SQLState: [5]byte{'2', '3', '0', '0', '0'}}, ClassConstraint},
		{"proxy passes a pg unique violation as 0/23505", &mysql.MySQLError{Number: 0, SQLState: [5]byte{'2', '3', '5', '0', '5'}}, ClassConstraint},
		{"generic number, generic state", &mysql.MySQLError{Number: 1815, SQLState: [5]byte{'H', 'Y', '0', '0', '0'}, Message: "Internal error"}, ClassOther},
		{"innodb undo slots", &mysql.MySQLError{Number: 1637, Message: "Too many active concurrent transactions"}, ClassResourceLimit},
		{"table full", &mysql.MySQLError{Number: 1114, Message: "The table 'order_line' is full"}, ClassResourceLimit},
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
		{"pg idle session timeout", &pgconn.PgError{Code: "57P05"}, ClassLostConnection},
		{"pg deferred constraint at commit", &pgconn.PgError{Code: "40002"}, ClassConstraint},
		{"pg idle in transaction timeout", &pgconn.PgError{Code: "25P03"}, ClassLostConnection},
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

// TestClassifyResourceLimitTexts: an exhausted pool or server limit is a
// resource limit (fatal, with a hint) by its code and, where a proxy
// reports it under a generic code, by the server's own text.
func TestClassifyResourceLimitTexts(t *testing.T) {
	tests := []struct {
		name string
		err  error
		code string
	}{
		{"ShardingSphere-Proxy backend pool (HikariCP)", &mysql.MySQLError{Number: 1815, SQLState: [5]byte{'H', 'Y', '0', '0', '0'},
			Message: "Internal error: HikariPool-2 - Connection is not available, request timed out after 30000ms."}, "1815"},
		{"ShardingSphere-Proxy pool, wrapped", fmt.Errorf("new_order: select district: %w", &mysql.MySQLError{Number: 1815,
			Message: "Connection is not available, request timed out after 30000ms"}), "1815"},
		{"ShardingSphere-Proxy partition", &mysql.MySQLError{Number: 1815,
			Message: "Can not get 36 connections one time, partition succeed connection(10) have released!"}, "1815"},
		{"MySQL too many connections", &mysql.MySQLError{Number: 1040, Message: "Too many connections"}, "1040"},
		{"MySQL max_user_connections", &mysql.MySQLError{Number: 1203, Message: "User bench already has more than 'max_user_connections' active connections"}, "1203"},
		{"MySQL max_prepared_stmt_count", &mysql.MySQLError{Number: 1461,
			Message: "Can't create more than max_prepared_stmt_count statements (current value: 16382)"}, "1461"},
		{"MySQL limit text under a proxy's code", &mysql.MySQLError{Number: 1105, Message: "Too many connections"}, "1105"},
		{"PostgreSQL too_many_connections", &pgconn.PgError{Code: "53300", Message: "sorry, too many clients already"}, "53300"},
		{"PostgreSQL reserved slots", &pgconn.PgError{Code: "53300",
			Message: "remaining connection slots are reserved for non-replication superuser connections"}, "53300"},
		{"PostgreSQL reserved slots under another code", &pgconn.PgError{Code: "XX000",
			Message: "remaining connection slots are reserved for roles with the SUPERUSER attribute"}, "XX000"},
		{"PostgreSQL out_of_memory", &pgconn.PgError{Code: "53200", Message: "out of memory"}, "53200"},
		{"PostgreSQL disk_full", &pgconn.PgError{Code: "53100",
			Message: `could not extend file "base/16384/16385": No space left on device`}, "53100"},
		{"plain error text", errors.New("HikariPool-1 - Connection is not available, request timed out after 3001ms."), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if c := Classify(tt.err); c != ClassResourceLimit || !c.Fatal() {
				t.Errorf("Classify = %v (fatal %v), want resource_limit (fatal)", c, c.Fatal())
			}
			if got := ErrorCode(tt.err); got != tt.code {
				t.Errorf("ErrorCode = %q, want %q", got, tt.code)
			}
			if Hint(tt.err) == "" {
				t.Error("no hint")
			}
		})
	}
	// A code's own class wins over the text; unrelated text stays other.
	for _, tt := range []struct {
		err  error
		want Class
	}{
		{&mysql.MySQLError{Number: 1205, Message: "Lock wait timeout exceeded; try restarting transaction"}, ClassLockTimeout},
		{&mysql.MySQLError{Number: 1815, Message: "Internal error: Route table sbtest9 does not exist"}, ClassOther},
		{&pgconn.PgError{Code: "40001", Message: "could not serialize access due to concurrent update"}, ClassSerialization},
	} {
		if c := Classify(tt.err); c != tt.want {
			t.Errorf("Classify(%v) = %v, want %v", tt.err, c, tt.want)
		}
	}
}
