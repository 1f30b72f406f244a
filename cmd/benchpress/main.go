// Command benchpress is the process edge: it builds the I/O state, runs the
// CLI and maps errors to exit codes. Nothing else touches os.Args, the
// environment, stdout/stderr or os.Exit.
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/go-sql-driver/mysql"

	"benchpress/internal/cli"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3".
var version = ""

func main() { os.Exit(run()) }

func run() int {
	// The MySQL driver logs lost connections to stderr by itself; benchpress
	// classifies and counts them, so the driver's own log would only garble
	// the live lines.
	_ = mysql.SetLogger(log.New(io.Discard, "", 0))
	// The first Ctrl-C (or SIGTERM) stops the run: the window's figures
	// are folded, the watch and the database read, the result saved, which
	// can take seconds; the user is told so. A second one quits at once.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		s := <-sigs
		fmt.Fprintf(os.Stderr, "\nbenchpress: %v: stopping, saving what was measured (again to quit at once and lose it)\n", s)
		cancel()
		again := <-sigs
		fmt.Fprintln(os.Stderr, "benchpress: quitting at once")
		// Die of the signal, as a caller's shell expects (128+n), not
		// with an exit code that would read as "results written".
		signal.Reset(os.Interrupt, syscall.SIGTERM)
		if p, err := os.FindProcess(os.Getpid()); err == nil {
			_ = p.Signal(again)
		}
		// A signal ignored since the start (a background job of a
		// script ignores SIGINT) does not kill: exit as the shell would.
		time.Sleep(100 * time.Millisecond)
		os.Exit(128 + 2)
	}()
	exe, _ := os.Executable()
	app := &cli.App{
		Out:     os.Stdout,
		Err:     os.Stderr,
		Getenv:  os.Getenv,
		IsTTY:   isTerminal(os.Stderr),
		Version: buildVersion(),
		// The default of --mysql-client (mywire or driver).
		MySQLClient: os.Getenv("BENCHPRESS_MYSQL_CLIENT"),
		// Each run sets the soft memory limit for its terminals.
		TuneProcess: tuneProcess(os.Getenv),
		Executable:  exe,
		Environ:     os.Environ,
	}
	root := cli.NewRoot(app)
	root.SetArgs(os.Args[1:])
	err := root.ExecuteContext(ctx)
	code := cli.ExitCode(err)
	switch {
	case code == cli.ExitInterrupted && (err == nil || err.Error() == cli.ErrInterrupted.Error() || err.Error() == context.Canceled.Error()):
		// The bare interruption; one joined with more (a sweep's kept
		// results) is printed whole below.
		fmt.Fprintln(os.Stderr, "benchpress: interrupted")
	case err != nil:
		fmt.Fprintf(os.Stderr, "benchpress: %v\n", err)
	}
	return code
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func buildVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
