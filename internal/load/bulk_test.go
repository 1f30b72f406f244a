package load

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

// textSource yields fixed rows covering the escaping cases.
type textSource struct {
	rows [][]Field
	i    int
}

func (s *textSource) Columns() []string { return []string{"id", "t", "m", "ts"} }
func (s *textSource) Row() []Field      { return s.rows[s.i-1] }
func (s *textSource) Next() bool        { s.i++; return s.i <= len(s.rows) }

func tricky() *textSource {
	txt := func(s string) Field { return Field{Kind: Text, B: []byte(s)} }
	return &textSource{rows: [][]Field{
		{{Kind: Int, I: 1}, txt("plain"), {Kind: Cents, I: -5}, {Kind: Time, I: 0}},
		{{Kind: Int, I: 2}, txt(`a,b "q" \ x`), {Kind: Cents, I: 12345}, {Kind: Null}},
		{{Kind: Int, I: 3}, txt(""), {Kind: Null}, {Kind: Time, I: 86400}},
		{{Kind: Int, I: 4}, txt("line\nbreak"), {Kind: Cents, I: 0}, {Kind: Time, I: 86400}},
	}}
}

func TestCSVReaderDialects(t *testing.T) {
	want := map[CSVDialect]string{
		CSVMySQL: "1,plain,-0.05,1970-01-01 00:00:00\n" +
			`2,"a,b \"q\" \\ x",123.45,\N` + "\n" +
			"3,\"\",\\N,1970-01-02 00:00:00\n" +
			"4,\"line\nbreak\",0.00,1970-01-02 00:00:00\n",
		CSVPostgres: "1,plain,-0.05,1970-01-01 00:00:00\n" +
			`2,"a,b ""q"" \ x",123.45,` + "\n" +
			"3,\"\",,1970-01-02 00:00:00\n" +
			"4,\"line\nbreak\",0.00,1970-01-02 00:00:00\n",
		CopyText: "1,plain,-0.05,1970-01-01 00:00:00\n" +
			`2,a\,b "q" \\ x,123.45,\N` + "\n" +
			"3,,\\N,1970-01-02 00:00:00\n" +
			"4,line\\nbreak,0.00,1970-01-02 00:00:00\n",
	}
	for d, w := range want {
		var c Counter
		b, err := io.ReadAll(NewCSVReader(tricky(), d, &c))
		if err != nil || string(b) != w {
			t.Errorf("dialect %d: got %q (%v), want %q", d, b, err, w)
		}
		if c.rows.Load() != 4 {
			t.Errorf("dialect %d: counted %d rows", d, c.rows.Load())
		}
	}
}

func TestParseMethod(t *testing.T) {
	for in, want := range map[string]Method{"": MethodAuto, "AUTO": MethodAuto, "bulk": MethodBulk, "insert": MethodInsert} {
		if got, err := ParseMethod(in); err != nil || got != want {
			t.Errorf("ParseMethod(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseMethod("copy"); err == nil {
		t.Error("ParseMethod(copy): no error")
	}
}

// TestBulkRoundTrip loads the tricky rows with the bulk path on each server
// and reads them back.
func TestBulkRoundTrip(t *testing.T) {
	for _, tg := range testdb.All(t, "load_bulk") {
		if tg.Kind == target.SQLite {
			continue
		}
		t.Run(string(tg.Kind), func(t *testing.T) {
			c, conn := testdb.Connect(t, tg, target.Options{ConnectTimeout: 5 * time.Second})
			ctx := context.Background()
			ts := "datetime"
			if tg.Kind == target.Postgres {
				ts = "timestamp"
			}
			for _, q := range []string{"DROP TABLE IF EXISTS bulk_rt",
				"CREATE TABLE bulk_rt (id int PRIMARY KEY, t varchar(40), m decimal(8,2), ts " + ts + " NULL)"} {
				if _, err := conn.Exec(ctx, q); err != nil {
					t.Fatal(err)
				}
			}
			st, err := Run(ctx, c, []Unit{{Key: "u", Table: "bulk_rt", EstRows: 4,
				Run: func(ctx context.Context, s *Session, c *Counter) (int64, error) {
					return Write(ctx, s, "bulk_rt", tricky(), c)
				}}}, Options{Threads: 1, Method: MethodBulk})
			if err != nil {
				t.Fatal(err)
			}
			if m := st.Methods["bulk_rt"]; m != PathLoadData && m != PathCopy {
				t.Errorf("method %q", m)
			}
			q := "SELECT id, t, COALESCE(CAST(m AS CHAR(20)), 'null'), ts IS NULL FROM bulk_rt ORDER BY id"
			if tg.Kind == target.Postgres {
				q = "SELECT id, t, COALESCE(m::text, 'null'), ts IS NULL FROM bulk_rt ORDER BY id"
			}
			rows, err := conn.Query(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var got []string
			for rows.Next() {
				var id int
				var s, m string
				var null bool
				if err := rows.Scan(&id, &s, &m, &null); err != nil {
					t.Fatal(err)
				}
				got = append(got, fmt.Sprintf("%d|%s|%s|%v", id, s, m, null))
			}
			want := []string{"1|plain|-0.05|false", `2|a,b "q" \ x|123.45|true`, "3||null|false", "4|line\nbreak|0.00|false"}
			if strings.Join(got, ";") != strings.Join(want, ";") {
				t.Errorf("got %q\nwant %q", got, want)
			}
		})
	}
}

// TestLocalInfileFallback simulates a MySQL server with local_infile=0: the
// load falls back to INSERT, warns once, and writes every row; with
// MethodBulk it fails naming the table and the remedy.
func TestLocalInfileFallback(t *testing.T) {
	tg := testdb.For(t, target.MySQL, "load_bulk")
	c, conn := testdb.Connect(t, tg, target.Options{ConnectTimeout: 5 * time.Second})
	ctx := context.Background()
	orig := execLoadData
	execLoadData = func(context.Context, *sql.Conn, string) (int64, error) {
		return 0, &mysql.MySQLError{Number: 1148, Message: "The used command is not allowed with this MariaDB version"}
	}
	t.Cleanup(func() { execLoadData = orig })
	for _, q := range []string{"DROP TABLE IF EXISTS bulk_fb", "CREATE TABLE bulk_fb (a int, b varchar(20), c decimal(10,2))"} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	mk := func() []Unit {
		us := units("bulk_fb", 1500, 700, 300)
		for i := range us {
			n := int(us[i].EstRows)
			us[i].Run = func(ctx context.Context, s *Session, c *Counter) (int64, error) {
				return Write(ctx, s, "bulk_fb", &countSource{n: n}, c)
			}
		}
		return us
	}
	st, err := Run(ctx, c, mk(), Options{Threads: 2, Method: MethodAuto})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "local_infile=1") {
		t.Errorf("warnings %q, want one mentioning local_infile=1", st.Warnings)
	}
	if st.Methods["bulk_fb"] != PathInsert {
		t.Errorf("method %q, want INSERT", st.Methods["bulk_fb"])
	}
	if n := countRows(t, conn, "bulk_fb"); n != 2500 {
		t.Errorf("rows %d, want 2500", n)
	}
	if _, err := conn.Exec(ctx, "DELETE FROM bulk_fb"); err != nil {
		t.Fatal(err)
	}
	_, err = Run(ctx, c, mk(), Options{Threads: 1, Method: MethodBulk})
	if err == nil || !strings.Contains(err.Error(), "bulk_fb") || !strings.Contains(err.Error(), "local_infile=1") {
		t.Errorf("MethodBulk on a refusing server: %v", err)
	}
}

// TestLoadDataStoresEveryRow: LOAD DATA LOCAL skips a row with a duplicate
// key as a warning and succeeds; the load must fail instead, naming the
// table, the rows stored of those sent and the server's warning, and leave
// nothing of the unit behind.
func TestLoadDataStoresEveryRow(t *testing.T) {
	tg := testdb.For(t, target.MySQL, "load_bulk")
	c, conn := testdb.Connect(t, tg, target.Options{ConnectTimeout: 5 * time.Second})
	ctx := context.Background()
	for _, q := range []string{"DROP TABLE IF EXISTS bulk_dup", "CREATE TABLE bulk_dup (a int PRIMARY KEY, b varchar(20), c decimal(10,2))",
		"INSERT INTO bulk_dup VALUES (5, 'before', 0)"} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	us := []Unit{{Key: "bulk_dup:0", Table: "bulk_dup", EstRows: 10,
		Run: func(ctx context.Context, s *Session, c *Counter) (int64, error) {
			return Write(ctx, s, "bulk_dup", &countSource{n: 10}, c)
		}}}
	_, err := Run(ctx, c, us, Options{Threads: 1, Method: MethodBulk})
	if err == nil {
		t.Fatal("a LOAD DATA that skipped a duplicate key succeeded")
	}
	for _, want := range []string{"bulk_dup", "stored 9 of the 10 rows", "1062"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if n := countRows(t, conn, "bulk_dup"); n != 1 {
		t.Errorf("rows %d after the failed unit, want the 1 from before", n)
	}
}

func countRows(t *testing.T, conn target.Conn, table string) int64 {
	t.Helper()
	rows, err := conn.Query(context.Background(), "SELECT COUNT(*) FROM "+table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var n int64
	if !rows.Next() {
		t.Fatalf("count %s: %v", table, rows.Err())
	}
	if err := rows.Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
