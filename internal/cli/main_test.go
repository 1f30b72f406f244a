package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"testing"
)

// envChild makes the test binary act as benchpress itself, so that
// --processes can start it as its child processes.
const envChild = "BP_CLI_TEST_AS_BENCHPRESS"

func TestMain(m *testing.M) {
	if os.Getenv(envChild) == "1" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		exe, _ := os.Executable()
		app := &App{Out: os.Stdout, Err: os.Stderr, Getenv: os.Getenv, Version: "test", Executable: exe, Environ: os.Environ}
		root := NewRoot(app)
		root.SetArgs(os.Args[1:])
		err := root.ExecuteContext(ctx)
		if err != nil {
			fmt.Fprintf(os.Stderr, "benchpress: %v\n", err)
		}
		stop()
		os.Exit(ExitCode(err))
	}
	os.Exit(m.Run())
}
