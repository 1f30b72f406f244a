package registry

import (
	"context"
	"fmt"

	"benchpress/internal/target"
	"benchpress/internal/usage"
)

// WithAdmin resolves tf, opens one admin session and runs fn with it; the
// session and the connector are closed afterwards.
func WithAdmin(ctx context.Context, env *Env, tf *target.Flags, fn func(conn *target.Connector, admin target.Conn) error) error {
	conn, err := tf.Connect(env.Target)
	if err != nil {
		return err
	}
	defer conn.Close()
	admin, err := conn.Connect(ctx)
	if err != nil {
		return err
	}
	defer admin.Close()
	return fn(conn, admin)
}

// Interrupted returns ctx's error when ctx ended (Ctrl-C), else err: a load
// stopped by a signal reports the interruption, not the aborted statement.
func Interrupted(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// AdminAction is the action of a command that checks its input first
// (check, before any connection: bad input is exit code 2 even when the
// server is down), then works on one admin session of tf's target.
func AdminAction(tf *target.Flags, check func(args []string) error, fn func(ctx context.Context, env *Env, admin target.Conn) error) Action {
	return func(ctx context.Context, env *Env, args []string) error {
		if err := check(args); err != nil {
			return err
		}
		return WithAdmin(ctx, env, tf, func(_ *target.Connector, admin target.Conn) error { return fn(ctx, env, admin) })
	}
}

// Connected returns the input problems joined when there are any (before
// any connection: exit code 2 even when the server is down); otherwise it
// connects to tf's target and runs fn, closing the connector afterwards.
func Connected(env *Env, tf *target.Flags, problems []error, fn func(conn *target.Connector) error) error {
	if err := usage.Join(problems); err != nil {
		return err
	}
	conn, err := tf.Connect(env.Target)
	if err != nil {
		return err
	}
	defer conn.Close()
	return fn(conn)
}

// EnsureDatabase creates the target's database where it does not exist
// yet (target.Connector.EnsureDatabase; the prepare and load commands, as
// go-tpc's prepare) and says so on env.Err.
func EnsureDatabase(ctx context.Context, env *Env, conn *target.Connector) error {
	created, err := conn.EnsureDatabase(ctx)
	for _, ep := range created {
		fmt.Fprintf(env.Err, "created database %q on %s (it did not exist)\n", conn.Target().Database, ep)
	}
	return err
}
