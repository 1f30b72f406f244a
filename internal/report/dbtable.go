package report

import (
	"fmt"
	"strings"
)

// dbCounterCols are the per-second server counters shown, per server kind,
// when the server has them (MariaDB has no Innodb_rows_*; Handler_* is
// common to MySQL and MariaDB).
var dbCounterCols = map[string][]string{
	"mysql": {"Questions", "Com_commit", "Com_rollback", "Innodb_rows_read", "Innodb_rows_inserted", "Innodb_rows_updated",
		"Handler_read_key", "Handler_write", "Handler_update", "Handler_delete", "Innodb_data_written"},
	"postgres": {"xact_commit", "xact_rollback", "blks_read", "blks_hit", "tup_fetched", "tup_inserted", "tup_updated"},
}

// presentCols keeps the counters some step of c has.
func presentCols(c *Case, cols []string) []string {
	var out []string
	for _, k := range cols {
		for _, s := range c.Steps {
			if w := s.Run.Watch; w != nil && w.Database != nil {
				if _, ok := w.Database.Counters[k]; ok {
					out = append(out, k)
					break
				}
			}
		}
	}
	return out
}

// dbTable lists the server's counters per second per step and the commit
// check.
func dbTable(c *Case) Table {
	var kind string
	for _, s := range c.Steps {
		if s.Run.Watch != nil && s.Run.Watch.Database != nil && s.Run.Watch.Database.Error == "" {
			kind = s.Run.Watch.Database.Kind
			break
		}
	}
	cols := presentCols(c, dbCounterCols[kind])
	if len(cols) == 0 {
		return Table{}
	}
	t := Table{Header: append(append([]string{"Concurrency"}, suffix(cols, "/s")...), "Server commits", "Tool commits", "Commit check"),
		Align: strings.Repeat("r", len(cols)+3) + "l"}
	for _, s := range c.Steps {
		w := s.Run.Watch
		if w == nil || w.Database == nil || !s.ok() || s.Run.Summary.DurationS <= 0 {
			continue
		}
		db := w.Database
		row := []string{fmt.Sprint(s.Concurrency)}
		for _, k := range cols {
			if v, ok := db.Counters[k]; ok {
				row = append(row, f2(v/s.Run.Summary.DurationS))
			} else {
				row = append(row, "-")
			}
		}
		if db.Error != "" {
			// The counters' session failed (terminated, lost): the commit
			// figures were never read, so no 0 stands in for them.
			t.Rows = append(t.Rows, append(row, "-", "-", "no figures: "+firstLine(db.Error)))
			continue
		}
		check := db.CommitCheck
		if check == "disagree" {
			check = "**DISAGREE**"
		}
		t.Rows = append(t.Rows, append(row, fmt.Sprint(db.ServerCommits), fmt.Sprint(db.ToolCommits), check))
	}
	return t
}

func suffix(ss []string, sfx string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s + sfx
	}
	return out
}

// sizeLine is seed 002's size/compression line for the data set, from the
// first step that measured it.
func sizeLine(c *Case) string {
	for _, s := range c.Steps {
		if w := s.Run.Watch; w != nil && w.Database != nil && w.Database.Size != nil {
			return fmt.Sprintf("Size after step %d: %s.", s.Concurrency, w.Database.Size.Line())
		}
	}
	return ""
}
