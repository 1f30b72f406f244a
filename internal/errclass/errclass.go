// Package errclass names the categories of database errors (deadlock,
// serialization, lock timeout, lost connection, constraint, other,
// permission, resource limit) that
// retries, counters, results and exit codes use. It is a leaf: metrics,
// results and reports count errors by class without linking a database
// driver; package target classifies each driver's errors into these.
package errclass

// Class is the category of a database error.
type Class int

const (
	None           Class = iota // no error
	Deadlock                    // MySQL 1213, PostgreSQL 40P01
	Serialization               // PostgreSQL/CockroachDB 40001, MariaDB 1020, TiDB 9007/8002/8022/8028, SQLite BUSY/LOCKED
	LockTimeout                 // MySQL 1205, PostgreSQL 55P03 / lock_timeout
	LostConnection              // broken pipe, EOF, server gone away, admin shutdown
	Constraint                  // duplicate key, FK, not null, check
	Other
	Permission    // MySQL 1142/1143/1044/1045/1227, PostgreSQL 42501/28xxx
	ResourceLimit // MySQL 1461/1226/1040/1203, PostgreSQL 53xxx/54000; by the text, a proxy's exhausted backend pool (ShardingSphere-Proxy 1815)
	Num           // number of classes
)

var names = [...]string{"none", "deadlock", "serialization", "lock_timeout", "lost_connection", "constraint", "other", "permission", "resource_limit"}

// String is the stable snake_case name used in summaries and JSON.
func (c Class) String() string {
	if c >= 0 && int(c) < len(names) {
		return names[c]
	}
	return "other"
}

// Retryable reports whether the transaction should simply be re-run.
func (c Class) Retryable() bool {
	return c == Deadlock || c == Serialization || c == LockTimeout
}

// Fatal reports whether one error of this class should stop the whole run:
// a missing privilege or an exhausted server limit fails every terminal the
// same way, so going on would only measure the failure.
func (c Class) Fatal() bool { return c == Permission || c == ResourceLimit }
