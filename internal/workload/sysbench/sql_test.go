package sysbench

import (
	"strings"
	"testing"

	"benchpress/internal/target"
)

func TestCreateTableSQL(t *testing.T) {
	o := DefaultOptions()
	cases := []struct {
		kind target.Kind
		mod  func(*Options)
		want []string
	}{
		{target.MySQL, nil, []string{"AUTO_INCREMENT", "PRIMARY KEY (id)", "ENGINE = innodb", "CHAR(120)", "CHAR(60)"}},
		{target.MySQL, func(o *Options) { o.Secondary = true }, []string{"KEY xid (id)"}},
		{target.Postgres, nil, []string{"id SERIAL NOT NULL", "PRIMARY KEY (id)"}},
		{target.Postgres, func(o *Options) { o.AutoInc = false }, []string{"id INTEGER NOT NULL,"}},
		{target.SQLite, nil, []string{"INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT"}},
	}
	for _, c := range cases {
		oo := o
		if c.mod != nil {
			c.mod(&oo)
		}
		sql, err := createTableSQL(c.kind, 3, &oo)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(sql, "CREATE TABLE sbtest3 (") {
			t.Errorf("%s", sql)
		}
		for _, w := range c.want {
			if !strings.Contains(sql, w) {
				t.Errorf("%s: %q missing from\n%s", c.kind, w, sql)
			}
		}
	}
	oo := o
	oo.Secondary = true
	if _, err := createTableSQL(target.SQLite, 1, &oo); err == nil {
		t.Error("sqlite secondary+auto_inc accepted")
	}
	if got := postLoadIndexes(target.MySQL, 2, &o); len(got) != 1 || got[0] != "CREATE INDEX k_2 ON sbtest2(k)" {
		t.Errorf("post-load indexes %v", got)
	}
}

func TestTemplates(t *testing.T) {
	if len(cTemplate) != 119 || len(padTemplate) != 59 {
		t.Errorf("template lengths %d/%d, want 119/59", len(cTemplate), len(padTemplate))
	}
}
