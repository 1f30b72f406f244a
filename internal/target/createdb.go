package target

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"
)

// EnsureDatabase makes sure every endpoint of the target has its database,
// as go-tpc's prepare does: an endpoint that refuses a session because the
// database does not exist (ConnectNoDatabase) gets it created, from a
// session without a default database on MySQL ("CREATE DATABASE IF NOT
// EXISTS") and from one to the maintenance database on PostgreSQL
// ("postgres", or "template1" where that was dropped). It returns the
// endpoints where it created the database. A sharding or routing proxy
// (ProxyName) is left alone: its logical databases are configuration, and
// one created by a statement has no storage behind it, so the user gets
// the original error with that said. Any other connect failure, and a
// failed CREATE DATABASE (the server's message kept, beside the original
// error), is returned as is. SQLite creates its file on first open.
func (c *Connector) EnsureDatabase(ctx context.Context) (created []string, err error) {
	t := c.target
	if t.Kind == SQLite || t.Database == "" {
		return nil, nil
	}
	for i, ep := range t.Endpoints {
		one := *t
		one.Endpoints = []string{ep}
		probe, err := NewConnector(&one, c.opts)
		if err != nil {
			return created, err
		}
		s, err := probe.Connect(ctx)
		if err == nil {
			s.Close()
			probe.Close()
			continue
		}
		probe.Close()
		var ce *ConnectError
		if !errors.As(err, &ce) || ce.Kind != ConnectNoDatabase {
			return created, err
		}
		if err := c.createOn(ctx, &one, err); err != nil {
			return created, err
		}
		created = append(created, t.Endpoints[i])
	}
	return created, nil
}

// createOn creates one.Database on one's single endpoint; missing is the
// connect error that said it does not exist.
func (c *Connector) createOn(ctx context.Context, one *Target, missing error) error {
	admin := *one
	var stmt string
	switch one.Kind {
	case MySQL:
		admin.Database = ""
		stmt = "CREATE DATABASE IF NOT EXISTS " + MySQL.QuoteIdent(one.Database)
	case Postgres:
		admin.Database = "postgres"
		stmt = "CREATE DATABASE " + Postgres.QuoteIdent(one.Database)
	default:
		return missing
	}
	opts := c.opts
	opts.StatementMode = Text
	s, done, err := openAdmin(ctx, &admin, opts)
	if err != nil && one.Kind == Postgres {
		admin.Database = "template1"
		s, done, err = openAdmin(ctx, &admin, opts)
	}
	if err != nil {
		return fmt.Errorf("%w; creating it: %v", missing, err)
	}
	defer done()
	if p := ProxyName(s.ServerVersion()); p != "" {
		return fmt.Errorf("%w (not created: %s's logical databases are configured in the proxy, with their storage)", missing, p)
	}
	if _, err := s.Exec(ctx, stmt); err != nil {
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "42P04" {
			return nil // duplicate_database: another loader created it first
		}
		return fmt.Errorf("%w; creating it: %v", missing, cleanError(err, one))
	}
	return nil
}

// openAdmin opens one session to t's single endpoint; close closes both
// the session and its connector.
func openAdmin(ctx context.Context, t *Target, opts Options) (s Conn, done func(), err error) {
	ac, err := NewConnector(t, opts)
	if err != nil {
		return nil, nil, err
	}
	if s, err = ac.Connect(ctx); err != nil {
		ac.Close()
		return nil, nil, err
	}
	return s, func() { s.Close(); ac.Close() }, nil
}
