package ycsb

import (
	"fmt"
	"strings"

	"benchpress/internal/target"
)

// columns returns "YCSB_KEY, FIELD0, ..." style lists.
func (c *Config) field(i int) string { return strings.ToUpper(c.FieldPrefix) + fmt.Sprint(i) }

func (c *Config) allFields() string {
	var b strings.Builder
	for i := 0; i < c.FieldCount; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.field(i))
	}
	return b.String()
}

// createTableSQL is the usertable DDL (§3.1): YCSB_KEY VARCHAR(64) PRIMARY
// KEY (go-ycsb's MySQL binding) and FIELDi VARCHAR(fieldlength), or TEXT on
// MySQL when the row would exceed its 64 KB row-size limit.
func (c *Config) createTableSQL(kind target.Kind) string {
	typ := fmt.Sprintf("VARCHAR(%d)", c.FieldLength)
	if kind == target.MySQL && c.FieldLength*c.FieldCount > 15000 {
		typ = "TEXT"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE IF NOT EXISTS %s (YCSB_KEY VARCHAR(64) PRIMARY KEY", c.Table)
	for i := 0; i < c.FieldCount; i++ {
		fmt.Fprintf(&b, ", %s %s", c.field(i), typ)
	}
	b.WriteString(")")
	return b.String()
}

// readSQL is the JDBC read (§3.6): all fields, or field i when i >= 0.
func (c *Config) readSQL(i int) string {
	cols := c.allFields()
	if i >= 0 {
		cols = c.field(i)
	}
	return fmt.Sprintf("SELECT YCSB_KEY, %s FROM %s WHERE YCSB_KEY = ?", cols, c.Table)
}

// scanSQL is the JDBC scan: start key, ORDER BY the key, LIMIT the length.
func (c *Config) scanSQL(i int) string {
	cols := c.allFields()
	if i >= 0 {
		cols = c.field(i)
	}
	return fmt.Sprintf("SELECT YCSB_KEY, %s FROM %s WHERE YCSB_KEY >= ? ORDER BY YCSB_KEY LIMIT ?", cols, c.Table)
}

// updateSQL sets field i, or every field when i < 0.
func (c *Config) updateSQL(i int) string {
	var set string
	if i >= 0 {
		set = c.field(i) + " = ?"
	} else {
		parts := make([]string, c.FieldCount)
		for j := range parts {
			parts[j] = c.field(j) + " = ?"
		}
		set = strings.Join(parts, ", ")
	}
	return fmt.Sprintf("UPDATE %s SET %s WHERE YCSB_KEY = ?", c.Table, set)
}

// insertSQL inserts rows records (multi-row for the load phase).
func (c *Config) insertSQL(rows int) string {
	row := "(?" + strings.Repeat(", ?", c.FieldCount) + ")"
	var b strings.Builder
	fmt.Fprintf(&b, "INSERT INTO %s (YCSB_KEY, %s) VALUES ", c.Table, c.allFields())
	for i := 0; i < rows; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(row)
	}
	return b.String()
}
