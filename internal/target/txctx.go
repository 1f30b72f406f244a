package target

import (
	"context"
	"time"
)

// EndTxTimeout bounds COMMIT and ROLLBACK, which ignore the cancellation of
// the caller's context (see endTxContext).
const EndTxTimeout = 30 * time.Second

// endTxContext detaches COMMIT and ROLLBACK from the caller's cancellation.
// Every driver reacts to a cancelled context mid-statement by interrupting
// it or closing the socket, so a COMMIT cancelled when a run ends may have
// committed on the server while the client reports an error, and a ROLLBACK
// with an already-cancelled context would not even be sent, leaving the
// transaction (and its locks) open on the session. Ending transactions
// regardless keeps the tool's counts equal to the database's.
func endTxContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), EndTxTimeout)
}
