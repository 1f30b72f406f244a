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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // a second Ctrl-C kills the process the usual way
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
	if err != nil && code != cli.ExitInterrupted {
		fmt.Fprintf(os.Stderr, "benchpress: %v\n", err)
	} else if code == cli.ExitInterrupted {
		fmt.Fprintln(os.Stderr, "benchpress: interrupted")
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
