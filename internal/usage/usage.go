// Package usage marks errors caused by bad user input (flags, plan files,
// target URLs); the CLI maps them to exit code 2. It is a leaf package so
// that workloads, targets and the CLI share one error type.
package usage

import (
	"fmt"
	"strings"
)

// Error marks bad input given by the user.
type Error struct{ Err error }

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with a formatted message.
func Errorf(format string, args ...any) error {
	return &Error{Err: fmt.Errorf(format, args...)}
}

// Join joins errors into one *Error listing every problem ("a; b; c"); nil
// for none, the error itself for one.
func Join(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	if len(errs) == 1 {
		return errs[0]
	}
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return Errorf("%s", strings.Join(msgs, "; "))
}
