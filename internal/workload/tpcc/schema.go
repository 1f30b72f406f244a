package tpcc

import (
	"context"
	"fmt"
	"strings"

	"benchpress/internal/target"
)

// SchemaVersion is recorded in the metadata table; bump it when the DDL or
// the data generation changes incompatibly.
const SchemaVersion = 1

// columnTypes are the SQL types of reference §1.2 in a portable spelling:
// N(p,s) is DECIMAL(p,s) everywhere (NUMERIC affinity on SQLite), and the
// placeholder TS becomes DATETIME on MySQL (a MySQL TIMESTAMP column may be
// given an implicit ON UPDATE CURRENT_TIMESTAMP) and TIMESTAMP elsewhere.
var columnTypes = map[tableID][]string{
	tWarehouse: {"int NOT NULL", "varchar(10)", "varchar(20)", "varchar(20)", "varchar(20)", "char(2)", "char(9)",
		"decimal(4,4)", "decimal(12,2)"},
	tDistrict: {"int NOT NULL", "int NOT NULL", "varchar(10)", "varchar(20)", "varchar(20)", "varchar(20)", "char(2)",
		"char(9)", "decimal(4,4)", "decimal(12,2)", "int"},
	tCustomer: {"int NOT NULL", "int NOT NULL", "int NOT NULL", "varchar(16)", "char(2)", "varchar(16)", "varchar(20)",
		"varchar(20)", "varchar(20)", "char(2)", "char(9)", "char(16)", "TS", "char(2)", "decimal(12,2)",
		"decimal(4,4)", "decimal(12,2)", "decimal(12,2)", "int", "int", "varchar(500)"},
	tHistory: {"int", "int", "int", "int", "int", "TS", "decimal(6,2)", "varchar(24)"},
	tOrders: {"int NOT NULL", "int NOT NULL", "int NOT NULL", "int", "TS", "int NULL", "int",
		"int"},
	tNewOrder: {"int NOT NULL", "int NOT NULL", "int NOT NULL"},
	tOrderLine: {"int NOT NULL", "int NOT NULL", "int NOT NULL", "int NOT NULL", "int", "int", "TS NULL", "int",
		"decimal(6,2)", "char(24)"},
	tItem: {"int NOT NULL", "int", "varchar(24)", "decimal(5,2)", "varchar(50)"},
	tStock: {"int NOT NULL", "int NOT NULL", "int", "char(24)", "char(24)", "char(24)", "char(24)", "char(24)",
		"char(24)", "char(24)", "char(24)", "char(24)", "char(24)", "int", "int", "int", "varchar(50)"},
}

// primaryKeys per table (clause 1.3); HISTORY has none in the spec and gets
// none here (InnoDB adds a hidden row id).
var primaryKeys = map[tableID]string{
	tWarehouse: "w_id",
	tDistrict:  "d_w_id, d_id",
	tCustomer:  "c_w_id, c_d_id, c_id",
	tNewOrder:  "no_w_id, no_d_id, no_o_id",
	tOrders:    "o_w_id, o_d_id, o_id",
	tOrderLine: "ol_w_id, ol_d_id, ol_o_id, ol_number",
	tItem:      "i_id",
	tStock:     "s_w_id, s_i_id",
}

// createOrder is the table creation order (and, reversed, the drop order, so
// that referencing tables go first when foreign keys exist).
var createOrder = []tableID{tItem, tWarehouse, tStock, tDistrict, tCustomer, tHistory, tOrders, tNewOrder, tOrderLine}

// CreateTableSQL returns the CREATE TABLE statement of table t for kind.
func createTableSQL(k target.Kind, n Names, t tableID) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "CREATE TABLE %s (\n", t.physical(n))
	for i, c := range columns[t] {
		typ := columnTypes[t][i]
		if strings.HasPrefix(typ, "TS") {
			ts := "timestamp"
			if k == target.MySQL {
				ts = "datetime"
			}
			typ = ts + strings.TrimPrefix(typ, "TS")
		}
		if i > 0 {
			sb.WriteString(",\n")
		}
		fmt.Fprintf(&sb, "  %s %s", c, typ)
	}
	if pk, ok := primaryKeys[t]; ok {
		fmt.Fprintf(&sb, ",\n  PRIMARY KEY (%s)", pk)
	}
	sb.WriteString("\n)")
	if k == target.MySQL {
		sb.WriteString(" ENGINE=InnoDB")
	}
	return sb.String()
}

// metaTableSQL creates the key/value metadata table.
func metaTableSQL(k target.Kind, n Names) string {
	s := "CREATE TABLE " + n.Meta + " (meta_key varchar(128) NOT NULL PRIMARY KEY, meta_value varchar(255))"
	if k == target.MySQL {
		s += " ENGINE=InnoDB"
	}
	return s
}

// indexSQL returns the two secondary indexes of reference §1.4: customer by
// last name (Payment / Order-Status by name) and a customer's latest order
// (Order-Status). They are created after the load.
func indexSQL(n Names) []string {
	return []string{
		fmt.Sprintf("CREATE INDEX %s_idx_name ON %s (c_w_id, c_d_id, c_last, c_first)", n.Customer, n.Customer),
		fmt.Sprintf("CREATE INDEX %s_idx_cust ON %s (o_w_id, o_d_id, o_c_id, o_id)", n.Orders, n.Orders),
	}
}

// indexNames are the names of the indexes of indexSQL, in order.
func indexNames(n Names) []string {
	return []string{n.Customer + "_idx_name", n.Orders + "_idx_cust"}
}

// missingIndexes returns the DDL of the secondary indexes that do not exist
// yet (a load into an existing data set finds them). When the catalog
// cannot be read (a proxy) it returns all of them.
func missingIndexes(ctx context.Context, conn target.Conn, n Names) ([]string, error) {
	var q string
	switch conn.Kind() {
	case target.MySQL:
		q = "SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema = DATABASE() AND index_name = ?"
	case target.Postgres:
		q = "SELECT COUNT(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname = ?"
	default:
		q = "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = ?"
	}
	names := indexNames(n)
	var missing []string
	for i, ddl := range indexSQL(n) {
		rows, err := conn.Query(ctx, q, names[i])
		if err != nil {
			// A sharding proxy may not serve the catalog (ShardingSphere
			// 5.1: "unsupported table"): create them all, and an index
			// that exists already is not an error (isDuplicateIndex).
			return indexSQL(n), nil
		}
		var cnt int64
		if rows.Next() {
			err = rows.Scan(&cnt)
		}
		if err == nil {
			err = rows.Err()
		}
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("look up index %s: %w", names[i], err)
		}
		if cnt == 0 {
			missing = append(missing, ddl)
		}
	}
	return missing, nil
}

// foreignKey is one constraint of foreignKeys: its name and its DDL.
type foreignKey struct{ name, sql string }

// foreignKeys returns the optional foreign keys of reference §1.4, named
// <table>_<name>, added after the load (not supported by ALTER TABLE on
// SQLite).
func foreignKeys(n Names) []foreignKey {
	fk := func(tab, name, cols, ref, refCols string) foreignKey {
		c := tab + "_" + name
		return foreignKey{c, fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s FOREIGN KEY (%s) REFERENCES %s (%s)",
			tab, c, cols, ref, refCols)}
	}
	return []foreignKey{
		fk(n.District, "fk_w", "d_w_id", n.Warehouse, "w_id"),
		fk(n.Customer, "fk_d", "c_w_id, c_d_id", n.District, "d_w_id, d_id"),
		fk(n.History, "fk_c", "h_c_w_id, h_c_d_id, h_c_id", n.Customer, "c_w_id, c_d_id, c_id"),
		fk(n.History, "fk_d", "h_w_id, h_d_id", n.District, "d_w_id, d_id"),
		fk(n.NewOrder, "fk_o", "no_w_id, no_d_id, no_o_id", n.Orders, "o_w_id, o_d_id, o_id"),
		fk(n.Orders, "fk_c", "o_w_id, o_d_id, o_c_id", n.Customer, "c_w_id, c_d_id, c_id"),
		fk(n.OrderLine, "fk_o", "ol_w_id, ol_d_id, ol_o_id", n.Orders, "o_w_id, o_d_id, o_id"),
		fk(n.OrderLine, "fk_s", "ol_supply_w_id, ol_i_id", n.Stock, "s_w_id, s_i_id"),
		fk(n.Stock, "fk_w", "s_w_id", n.Warehouse, "w_id"),
		fk(n.Stock, "fk_i", "s_i_id", n.Item, "i_id"),
	}
}

// listTables returns the lower-cased names of the tables of every naming
// scheme (and the metadata table) that the session sees under their logical
// names. It probes each name (target.TableExists) instead of reading the
// catalog, so that it tells the truth through a sharding proxy, whose
// information_schema lists actual tables (warehouse_0, ...) or nothing.
func listTables(ctx context.Context, conn target.Conn) (map[string]bool, error) {
	var names []string
	for _, s := range SchemeNames() {
		n, _ := NamesFor(s)
		names = append(names, allTables(n)...)
	}
	have, err := target.ExistingTables(ctx, conn, names)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	return have, nil
}

// hasForeignKeys reports whether n's STOCK table has the foreign keys of
// --fk (any of them: a load that failed while adding them has some, which
// --resume --fk completes; SQLite never has them). An error reading the
// catalog counts as none.
func hasForeignKeys(ctx context.Context, conn target.Conn, n Names) bool {
	if conn.Kind() == target.SQLite {
		return false
	}
	var c int64
	err := target.QueryRow(ctx, conn, "SELECT COUNT(*) FROM information_schema.table_constraints WHERE constraint_type = 'FOREIGN KEY' AND table_schema = "+schemaSQL(conn.Kind())+" AND LOWER(table_name) = ?",
		[]any{&c}, strings.ToLower(n.Stock))
	return err == nil && c > 0
}

// schemaSQL is the SQL expression of the session's schema as
// information_schema names it: the database on MySQL, the schema on
// PostgreSQL.
func schemaSQL(k target.Kind) string {
	if k == target.Postgres {
		return "current_schema()"
	}
	return "DATABASE()"
}

// foreignKeyNames returns the lower-cased names of the foreign keys in the
// session's schema (database).
func foreignKeyNames(ctx context.Context, conn target.Conn) (map[string]bool, error) {
	rows, err := conn.Query(ctx, "SELECT constraint_name FROM information_schema.table_constraints WHERE constraint_type = 'FOREIGN KEY' AND table_schema = "+schemaSQL(conn.Kind()))
	if err != nil {
		return nil, fmt.Errorf("list foreign keys: %w", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, fmt.Errorf("list foreign keys: %w", err)
		}
		out[strings.ToLower(c)] = true
	}
	return out, rows.Err()
}

// allTables returns the data tables and the metadata table of n.
func allTables(n Names) []string { return append(n.Tables(), n.Meta) }

// dropTables drops the scheme's tables (DROP TABLE IF EXISTS, so it is
// idempotent and tolerates a concurrent drop), referencing tables first.
func dropTables(ctx context.Context, conn target.Conn, n Names) error {
	names := []string{n.Meta}
	for i := len(createOrder) - 1; i >= 0; i-- {
		names = append(names, createOrder[i].physical(n))
	}
	for _, t := range names {
		q := "DROP TABLE IF EXISTS " + t
		if conn.Kind() == target.Postgres {
			q += " CASCADE"
		}
		if _, err := conn.Exec(ctx, q); err != nil {
			return fmt.Errorf("drop table %s: %w", t, err)
		}
	}
	return nil
}
