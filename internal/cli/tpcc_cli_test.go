package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchpress/internal/target"
	"benchpress/internal/testdb"
)

// runCLI runs the root command as the binary would and returns stdout,
// stderr (with the final error line main prints) and the exit code.
func runCLI(t *testing.T, env map[string]string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	app := &App{Out: &out, Err: &errb, Getenv: func(k string) string { return env[k] }, Version: "test"}
	return runApp(app, &out, &errb, args...)
}

// runApp runs the root command of app, whose Out and Err are out and errb.
func runApp(app *App, out, errb *bytes.Buffer, args ...string) (string, string, int) {
	root := NewRoot(app)
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	if err != nil {
		errb.WriteString("benchpress: " + err.Error() + "\n")
	}
	return out.String(), errb.String(), ExitCode(err)
}

// serverURL builds a URL for tg with the given password and database.
func serverURL(tg *target.Target, password, db string) string {
	scheme := "mysql"
	if tg.Kind == target.Postgres {
		scheme = "postgres"
	}
	return scheme + "://" + tg.User + ":" + password + "@" + tg.Endpoints[0] + "/" + db
}

func urlOf(tg *target.Target) string {
	if tg.Kind == target.SQLite {
		return "sqlite://" + tg.Endpoints[0]
	}
	return serverURL(tg, tg.Password, tg.Database)
}

func TestTPCCBadInputExitCodes(t *testing.T) {
	sqlite := "sqlite://" + filepath.Join(t.TempDir(), "x.db")
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"malformed URL", []string{"tpcc", "run", "--target", "mysql://bench@127.0.0.1:3306"}, ExitUsage, "missing database name"},
		{"unknown scheme", []string{"tpcc", "run", "--target", "oracle://a@b/c"}, ExitUsage, `unknown target scheme "oracle"`},
		{"zero terminals", []string{"tpcc", "run", "--target", sqlite, "--terminals", "0"}, ExitUsage, "--terminals must be >= 1"},
		{"negative duration", []string{"tpcc", "run", "--target", sqlite, "--duration", "-5s"}, ExitUsage, "--duration must be > 0"},
		{"unknown mix", []string{"tpcc", "run", "--target", sqlite, "--mix", "new_order=45,bogus=3"}, ExitUsage, "--mix"},
		{"all problems at once", []string{"tpcc", "run", "--target", sqlite, "--terminals", "0", "--duration", "0s"}, ExitUsage, "--terminals must be >= 1 (got 0); --duration"},
		{"unknown flag", []string{"tpcc", "run", "--bogus"}, ExitUsage, "unknown flag"},
		{"unknown command", []string{"tpcc", "frob"}, ExitUsage, `unknown command "frob"`},
		{"bad names scheme", []string{"tpcc", "check", "--target", sqlite, "--names", "oracle"}, ExitUsage, "unknown table-name scheme"},
		{"unreachable port", []string{"tpcc", "run", "--target", "mysql://bench:bench@127.0.0.1:1/bp"}, ExitUnreachable, "127.0.0.1:1"},
		{"run before prepare", []string{"tpcc", "run", "--target", sqlite}, ExitNotPrepared, "run `benchpress tpcc prepare` first"},
		{"warehouses 0 on prepare", []string{"tpcc", "prepare", "--target", sqlite, "--warehouses", "0"}, ExitUsage, "--warehouses must be >= 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, nil, tc.args...)
			if code != tc.code {
				t.Errorf("exit code %d, want %d; stderr: %s", code, tc.code, stderr)
			}
			if !strings.Contains(stderr, tc.msg) {
				t.Errorf("stderr %q lacks %q", stderr, tc.msg)
			}
			if strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("want one line, got %q", stderr)
			}
		})
	}
}

func TestTPCCServerErrorsExitCodes(t *testing.T) {
	for _, kind := range []target.Kind{target.MySQL, target.Postgres} {
		tg := testdb.For(t, kind, "cli_errors")
		t.Run(string(kind), func(t *testing.T) {
			const secret = "wrongpw-Secret42"
			_, stderr, code := runCLI(t, nil, "tpcc", "run", "--target", serverURL(tg, secret, tg.Database))
			if code != ExitAuth {
				t.Errorf("wrong password: exit %d, want %d: %s", code, ExitAuth, stderr)
			}
			if strings.Contains(stderr, secret) {
				t.Errorf("password printed: %s", stderr)
			}
			_, stderr, code = runCLI(t, nil, "tpcc", "run", "--target", serverURL(tg, tg.Password, "bp_no_such_db"))
			if code != ExitNoDatabase {
				t.Errorf("missing database: exit %d, want %d: %s", code, ExitNoDatabase, stderr)
			}
			// Password from the environment instead of the URL.
			env := map[string]string{"BP_PW": tg.Password}
			u := strings.Replace(serverURL(tg, "x", tg.Database), ":x@", "@", 1)
			_, stderr, code = runCLI(t, env, "tpcc", "check", "--target", u, "--password-env", "BP_PW", "--names", "tpcc-mysql")
			if code != ExitNotPrepared && code != ExitMismatch {
				t.Errorf("password-env: exit %d, want a data-set error (not auth): %s", code, stderr)
			}
		})
	}
}

// TestTPCCEndToEndSQLite prepares, runs and checks through the CLI and
// verifies the JSON keys scripts rely on, and the data-set mismatch errors.
func TestTPCCEndToEndSQLite(t *testing.T) {
	dir := t.TempDir()
	url := "sqlite://" + filepath.Join(dir, "tpcc.db")
	if _, stderr, code := runCLI(t, nil, "tpcc", "prepare", "--target", url, "--warehouses", "1"); code != 0 {
		t.Fatalf("prepare: exit %d: %s", code, stderr)
	}
	_, stderr, code := runCLI(t, nil, "tpcc", "prepare", "--target", url, "--warehouses", "1")
	if code != ExitMismatch || !strings.Contains(stderr, "--drop") {
		t.Errorf("prepare over existing tables: exit %d, %q", code, stderr)
	}
	_, stderr, code = runCLI(t, nil, "tpcc", "run", "--target", url, "--warehouses", "2", "--duration", "1s")
	if code != ExitMismatch || !strings.Contains(stderr, "warehouse") {
		t.Errorf("warehouse mismatch: exit %d, %q", code, stderr)
	}
	_, stderr, code = runCLI(t, nil, "tpcc", "run", "--target", url, "--names", "bmsql", "--duration", "1s")
	if code != ExitMismatch {
		t.Errorf("scheme mismatch: exit %d, %q", code, stderr)
	}
	js := filepath.Join(dir, "r.json")
	out, stderr, code := runCLI(t, nil, "tpcc", "run", "--target", url, "--terminals", "2", "--warmup", "1s",
		"--duration", "4s", "--report-interval", "2s", "--json", js, "--check")
	if code != 0 {
		t.Fatalf("run: exit %d: %s\n%s", code, stderr, out)
	}
	for _, want := range []string{"tpmC", "tpmTOTAL", "new_order", "stock_level", "p99.9", "PASS  1:"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(stderr, "tpmC") {
		t.Errorf("no live line on stderr: %s", stderr)
	}
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["format_version"] != float64(1) {
		t.Errorf("format_version = %v", doc["format_version"])
	}
	sum, _ := doc["summary"].(map[string]any)
	for _, k := range []string{"tpmC", "tpmTotal", "tps", "success_rate", "new_order_committed", "new_order_rolled_back", "errors", "duration_s"} {
		if _, ok := sum[k]; !ok {
			t.Errorf("summary lacks %q", k)
		}
	}
	if tpmC, _ := sum["tpmC"].(float64); tpmC <= 0 {
		t.Errorf("tpmC = %v", sum["tpmC"])
	}
	if out, stderr, code := runCLI(t, nil, "tpcc", "check", "--target", url, "--all"); code != 0 || !strings.Contains(out, "passed") {
		t.Errorf("check --all: exit %d: %s %s", code, out, stderr)
	}
	if _, stderr, code := runCLI(t, nil, "tpcc", "cleanup", "--target", url); code != 0 {
		t.Errorf("cleanup: exit %d: %s", code, stderr)
	}
	if _, _, code := runCLI(t, nil, "tpcc", "run", "--target", url); code != ExitNotPrepared {
		t.Errorf("after cleanup: exit %d, want %d", code, ExitNotPrepared)
	}
}

// TestTPCCRunOnServers runs the whole CLI path on MariaDB and PostgreSQL in
// both statement modes with two endpoints (round-robin).
func TestTPCCRunOnServers(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: server end-to-end runs skipped")
	}
	for _, kind := range []target.Kind{target.MySQL, target.Postgres} {
		tg := testdb.For(t, kind, "cli_e2e")
		url := urlOf(tg)
		t.Run(string(kind), func(t *testing.T) {
			if _, stderr, code := runCLI(t, nil, "tpcc", "prepare", "--target", url, "--warehouses", "1", "--threads", "2", "--drop"); code != 0 {
				t.Fatalf("prepare: exit %d: %s", code, stderr)
			}
			host, port, _ := strings.Cut(tg.Endpoints[0], ":")
			two := strings.Replace(url, tg.Endpoints[0], tg.Endpoints[0]+","+map[string]string{"127.0.0.1": "localhost"}[host]+":"+port, 1)
			for _, mode := range []string{"prepared", "text"} {
				js := filepath.Join(t.TempDir(), "r.json")
				out, stderr, code := runCLI(t, nil, "tpcc", "run", "--target", two, "--terminals", "4", "--warmup", "0s",
					"--duration", "3s", "--statement-mode", mode, "--check", "--json", js)
				if code != 0 {
					t.Fatalf("%s run: exit %d: %s\n%s", mode, code, stderr, out)
				}
				if !strings.Contains(out, "connections per endpoint") {
					t.Errorf("%s: no endpoint spread in summary:\n%s", mode, out)
				}
				// The terminals' sessions, two per endpoint; not the run's
				// side sessions (the watch's, the limits read before).
				var sessions int64
				r := readResult(t, js)
				for ep, n := range r.Endpoints {
					if n != 2 {
						t.Errorf("%s: endpoint %s opened %d sessions, want 2 (of 4 terminals): %v", mode, ep, n, r.Endpoints)
					}
				}
				for _, n := range r.Clients {
					sessions += n
				}
				if len(r.Endpoints) != 2 || sessions != 4 {
					t.Errorf("%s: endpoints %v clients %v, want the 4 terminals' sessions", mode, r.Endpoints, r.Clients)
				}
				if strings.Contains(out, tg.Password+"@") {
					t.Errorf("password printed")
				}
			}
		})
	}
}

// TestTPCCInterruptWritesResult: Ctrl-C (the root context cancelled) stops
// the terminals; the summary and the JSON of what was measured are written
// and the exit code is 130.
func TestTPCCInterruptWritesResult(t *testing.T) {
	dir := t.TempDir()
	url := "sqlite://" + filepath.Join(dir, "tpcc.db")
	if _, stderr, code := runCLI(t, nil, "tpcc", "prepare", "--target", url); code != 0 {
		t.Fatalf("prepare: exit %d: %s", code, stderr)
	}
	js := filepath.Join(dir, "r.json")
	var out, errb bytes.Buffer
	app := &App{Out: &out, Err: &errb, Getenv: func(string) string { return "" }, Version: "test"}
	root := NewRoot(app)
	root.SetArgs([]string{"tpcc", "run", "--target", url, "--terminals", "2", "--warmup", "0s", "--duration", "1h", "--json", js})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	err := root.ExecuteContext(ctx)
	if code := ExitCode(err); code != ExitInterrupted {
		t.Fatalf("exit %d (%v), want %d", code, err, ExitInterrupted)
	}
	if !strings.Contains(out.String(), "INTERRUPTED") || !strings.Contains(out.String(), "tpmC") {
		t.Errorf("no summary after interrupt:\n%s", out.String())
	}
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatalf("no JSON after interrupt: %v", err)
	}
	var doc struct {
		Status  string `json:"status"`
		Summary struct {
			DurationS float64 `json:"duration_s"`
			NOC       int64   `json:"new_order_committed"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Status != "interrupted" || doc.Summary.DurationS < 1 || doc.Summary.NOC == 0 {
		t.Errorf("JSON after interrupt: %+v", doc)
	}
}
