package sysbench

import (
	"fmt"
	"strings"

	"benchpress/internal/target"
)

// stmtKind indexes a terminal's prepared statements of one table (§2.4).
type stmtKind uint8

const (
	skPoint stmtKind = iota
	skSimple
	skSum
	skOrder
	skDistinct
	skIndexUpdate
	skNonIndexUpdate
	skDelete
	skInsert    // INSERT (id, k, c, pad): delete/insert pairs, oltp_insert without auto_inc
	skInsertNew // INSERT (k, c, pad): oltp_insert with auto_inc
	numStmtKinds
)

// stmtSQL returns the statement text for table n ('?' placeholders on all
// drivers). oltp_insert with auto_inc omits the id column on every driver:
// sysbench sends id 0 on MySQL (the server assigns the next value) and omits
// the column with its pgsql driver; omitting it has the same effect
// everywhere and also works on SQLite and with NO_AUTO_VALUE_ON_ZERO.
func stmtSQL(k stmtKind, n int) string {
	t := tableName(n)
	switch k {
	case skPoint:
		return "SELECT c FROM " + t + " WHERE id=?"
	case skSimple:
		return "SELECT c FROM " + t + " WHERE id BETWEEN ? AND ?"
	case skSum:
		return "SELECT SUM(k) FROM " + t + " WHERE id BETWEEN ? AND ?"
	case skOrder:
		return "SELECT c FROM " + t + " WHERE id BETWEEN ? AND ? ORDER BY c"
	case skDistinct:
		return "SELECT DISTINCT c FROM " + t + " WHERE id BETWEEN ? AND ? ORDER BY c"
	case skIndexUpdate:
		return "UPDATE " + t + " SET k=k+1 WHERE id=?"
	case skNonIndexUpdate:
		return "UPDATE " + t + " SET c=? WHERE id=?"
	case skDelete:
		return "DELETE FROM " + t + " WHERE id=?"
	case skInsert:
		return "INSERT INTO " + t + " (id, k, c, pad) VALUES (?, ?, ?, ?)"
	case skInsertNew:
		return "INSERT INTO " + t + " (k, c, pad) VALUES (?, ?, ?)"
	}
	panic("sysbench: unknown statement kind")
}

// stmtKinds returns the statements a plan needs.
func stmtKinds(p []step, autoInc bool) []stmtKind {
	var need [numStmtKinds]bool
	for _, s := range p {
		switch s.kind {
		case stPoint:
			need[skPoint] = true
		case stSimple:
			need[skSimple] = true
		case stSum:
			need[skSum] = true
		case stOrder:
			need[skOrder] = true
		case stDistinct:
			need[skDistinct] = true
		case stIndexUpdate:
			need[skIndexUpdate] = true
		case stNonIndexUpdate:
			need[skNonIndexUpdate] = true
		case stDeleteInsert:
			need[skDelete], need[skInsert] = true, true
		case stDelete:
			need[skDelete] = true
		case stInsert:
			if autoInc {
				need[skInsertNew] = true
			} else {
				need[skInsert] = true
			}
		}
	}
	var out []stmtKind
	for k, ok := range need {
		if ok {
			out = append(out, stmtKind(k))
		}
	}
	return out
}

func tableName(n int) string { return fmt.Sprintf("sbtest%d", n) }

// createTableSQL is oltp_common.lua's create_table (§2.1) per dialect.
func createTableSQL(kind target.Kind, n int, o *Options) (string, error) {
	var id string
	switch kind {
	case target.MySQL:
		id = "id INTEGER NOT NULL"
		if o.AutoInc {
			id += " AUTO_INCREMENT"
		}
	case target.Postgres:
		id = "id INTEGER NOT NULL"
		if o.AutoInc {
			id = "id SERIAL NOT NULL"
		}
	case target.SQLite:
		switch {
		case o.Secondary && o.AutoInc:
			return "", fmt.Errorf("sqlite: secondary=on needs auto_inc=off (AUTOINCREMENT requires the INTEGER PRIMARY KEY)")
		case o.Secondary:
			id = "id INTEGER NOT NULL"
		case o.AutoInc:
			id = "id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT"
		default:
			id = "id INTEGER NOT NULL PRIMARY KEY"
		}
	default:
		return "", fmt.Errorf("unsupported target kind %q", kind)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (\n  %s,\n  k INTEGER DEFAULT '0' NOT NULL,\n  c CHAR(120) DEFAULT '' NOT NULL,\n  pad CHAR(60) DEFAULT '' NOT NULL", tableName(n), id)
	switch {
	case kind == target.MySQL && o.Secondary:
		b.WriteString(",\n  KEY xid (id)")
	case kind != target.SQLite && !o.Secondary:
		b.WriteString(",\n  PRIMARY KEY (id)")
	}
	b.WriteString("\n)")
	if kind == target.MySQL {
		b.WriteString(" ENGINE = " + o.MySQLStorageEngine)
	}
	if o.CreateTableOptions != "" {
		b.WriteString(" " + o.CreateTableOptions)
	}
	return b.String(), nil
}

// postLoadIndexes are created after the rows are loaded (§2.1).
func postLoadIndexes(kind target.Kind, n int, o *Options) []string {
	var out []string
	if o.Secondary && kind != target.MySQL {
		out = append(out, fmt.Sprintf("CREATE INDEX xid_%d ON %s(id)", n, tableName(n)))
	}
	if o.CreateSecondary {
		out = append(out, fmt.Sprintf("CREATE INDEX k_%d ON %s(k)", n, tableName(n)))
	}
	return out
}
