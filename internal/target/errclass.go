package target

import "benchpress/internal/errclass"

// Class is the category of a database error, used for retries, counters and
// exit codes (defined in the leaf package errclass; Classify maps each
// driver's errors to it).
type Class = errclass.Class

// The classes, under the names the rest of target and its callers use.
const (
	ClassNone           = errclass.None
	ClassDeadlock       = errclass.Deadlock
	ClassSerialization  = errclass.Serialization
	ClassLockTimeout    = errclass.LockTimeout
	ClassLostConnection = errclass.LostConnection
	ClassConstraint     = errclass.Constraint
	ClassOther          = errclass.Other
	ClassPermission     = errclass.Permission
	ClassResourceLimit  = errclass.ResourceLimit
	NumClasses          = errclass.Num
)
