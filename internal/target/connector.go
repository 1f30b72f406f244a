package target

import (
	"context"
	"errors"
)

// ConnectErrorKind classifies why a session could not be opened.
type ConnectErrorKind int

const (
	ConnectOther       ConnectErrorKind = iota
	ConnectUnreachable                  // DNS, refused, timeout
	ConnectAuth                         // wrong user or password
	ConnectNoDatabase                   // database does not exist
	ConnectTooMany                      // server's connection limit reached
)

// ConnectError is returned by Connector.Connect; its message names the
// endpoint and the server's message, never the password.
type ConnectError struct {
	Kind     ConnectErrorKind
	Endpoint string
	Err      error
}

func (e *ConnectError) Error() string { return "connect " + e.Endpoint + ": " + e.Err.Error() }
func (e *ConnectError) Unwrap() error { return e.Err }

var errNotImplemented = errors.New("not implemented yet")

var _ = context.Background
