package sysbench

import (
	"context"
	"testing"

	"benchpress/internal/target"
)

// nopConn answers every statement at once and without allocating, keeping
// the last statement's integer arguments, so that allocations measured
// around a terminal's event are the terminal's own.
type nopConn struct {
	fakeConn
	stmt nopStmt
}

type nopStmt struct {
	rows fakeRows
	ints []int64 // the last statement's *int64 arguments, dereferenced
	bad  int     // arguments that were neither *int64 nor string
}

func (c *nopConn) Prepare(context.Context, string) (target.Stmt, error) { return &c.stmt, nil }

func (s *nopStmt) args(args []any) {
	s.ints = s.ints[:0]
	for _, a := range args {
		switch v := a.(type) {
		case *int64:
			s.ints = append(s.ints, *v)
		case string:
		default:
			s.bad++
		}
	}
}

func (s *nopStmt) Exec(_ context.Context, args ...any) (int64, error) { s.args(args); return 1, nil }
func (s *nopStmt) Query(_ context.Context, args ...any) (target.Rows, error) {
	s.args(args)
	s.rows.n = 0
	return &s.rows, nil
}
func (s *nopStmt) QueryRow(_ context.Context, _ []any, args ...any) error { s.args(args); return nil }

// TestEventAllocations: a point select or index update event allocates
// nothing in the terminal (its integer arguments go by pointer: an id above
// 255 boxed in an interface is a heap allocation per statement,
// runtime.convT64), and every integer argument arrives as a *int64 holding
// an id of the table.
func TestEventAllocations(t *testing.T) {
	for _, test := range []string{PointSelect, UpdateIndex, ReadOnly} {
		t.Run(test, func(t *testing.T) {
			o := DefaultOptions()
			o.Tables, o.TableSize, o.Seed = 4, 100_000, 1
			w, err := New(test, o)
			if err != nil {
				t.Fatal(err)
			}
			conn := &nopConn{fakeConn: fakeConn{kind: target.MySQL}}
			conn.stmt.ints = make([]int64, 0, 4)
			term, err := w.NewTerminal(context.Background(), 0, 1, conn)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			var runErr error
			allocs := testing.AllocsPerRun(500, func() {
				if _, err := term.Exec(ctx, 0); err != nil {
					runErr = err
				}
			})
			if runErr != nil {
				t.Fatal(runErr)
			}
			if allocs != 0 {
				t.Errorf("%v allocations per event, want 0", allocs)
			}
			if conn.stmt.bad != 0 {
				t.Errorf("%d arguments were neither *int64 nor string", conn.stmt.bad)
			}
			if len(conn.stmt.ints) == 0 {
				t.Fatal("no integer argument seen")
			}
			for _, v := range conn.stmt.ints {
				if v < 1 || v > int64(o.TableSize)+int64(o.RangeSize) {
					t.Errorf("integer argument %d outside the table's ids", v)
				}
			}
		})
	}
}
