package report

import (
	"os/exec"
	"strings"
	"testing"
)

// The report reads saved results only: building it must not link a
// database driver (issue: one-way data flow, offline re-rendering). A new
// import of target (or anything that pulls a driver) into results, metrics
// or report fails here.
func TestReportLinksNoDatabaseDriver(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Skipf("go list not available: %v: %s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, driver := range []string{"go-sql-driver/mysql", "jackc/pgx", "modernc.org/sqlite", "benchpress/internal/target"} {
			if strings.Contains(dep, driver) {
				t.Errorf("internal/report links %s", dep)
			}
		}
	}
}
