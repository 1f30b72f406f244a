package target

// Class is the category of a database error, used for retries, counters and
// exit codes. Classification works on all three drivers.
type Class int

const (
	ClassNone           Class = iota // no error
	ClassDeadlock                    // MySQL 1213, PostgreSQL 40P01
	ClassSerialization               // PostgreSQL 40001, SQLite BUSY/LOCKED
	ClassLockTimeout                 // MySQL 1205, PostgreSQL 55P03 / lock_timeout
	ClassLostConnection              // broken pipe, EOF, server gone away, admin shutdown
	ClassConstraint                  // duplicate key, FK, not null, check
	ClassOther
	NumClasses
)

var classNames = [...]string{"none", "deadlock", "serialization", "lock_timeout", "lost_connection", "constraint", "other"}

// String is the stable snake_case name used in summaries and JSON.
func (c Class) String() string {
	if c >= 0 && int(c) < len(classNames) {
		return classNames[c]
	}
	return "other"
}

// Retryable reports whether the transaction should simply be re-run.
func (c Class) Retryable() bool {
	return c == ClassDeadlock || c == ClassSerialization || c == ClassLockTimeout
}
