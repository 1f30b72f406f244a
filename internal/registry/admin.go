package registry

import (
	"context"

	"benchpress/internal/target"
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
