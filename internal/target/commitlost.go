package target

// CommitLostError is a COMMIT whose session was lost before the server's
// reply: a transport error (a timeout past EndTxTimeout, a reset, EOF)
// with no server error code. The server may have committed the
// transaction or not; the client cannot tell. Its class stays
// ClassLostConnection (the session is gone and is replaced) and the
// transaction counts as failed, but its message says that the outcome is
// unknown, so that a user reading "commit: i/o timeout" among the error
// samples does not take it for a transaction the server refused (the
// database's commit count may hold it: the commit check's slack of one
// transaction per terminal covers these).
type CommitLostError struct{ Err error }

func (e *CommitLostError) Error() string {
	return "outcome unknown, the session was lost before the server's reply (it may have committed): " + e.Err.Error()
}

func (e *CommitLostError) Unwrap() error { return e.Err }

// commitLost wraps a COMMIT's err in CommitLostError when it is a lost
// session without a server reply; any other error (a server's error,
// which says what happened to the transaction) is returned as it is.
func commitLost(err error) error {
	if err == nil || ErrorCode(err) != "" || !isLostConnection(err) {
		return err
	}
	return &CommitLostError{Err: err}
}
