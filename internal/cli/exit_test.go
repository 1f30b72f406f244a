package cli

import (
	"errors"
	"fmt"
	"testing"

	"github.com/go-sql-driver/mysql"

	"benchpress/internal/results"
	"benchpress/internal/sweep"
	"benchpress/internal/target"
)

func TestExitCodesOfVerdictsAndLimits(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"failed verdict", &VerdictError{Verdict: results.VerdictFailed}, ExitRunFailed},
		{"degraded verdict", &VerdictError{Verdict: results.VerdictDegraded}, ExitDegraded},
		{"failed check", &CheckError{Name: "p90 new_order <= 5s"}, ExitCheckFailed},
		{"statement cap", fmt.Errorf("run: %w", ErrStmtLimit), ExitTooMany},
		{"refused at start by a privilege", withHint(fmt.Errorf("terminal 1: %w", &mysql.MySQLError{Number: 1142})), ExitRunFailed},
		{"statement cap reached at start", withHint(fmt.Errorf("terminal 3: prepare: %w", &mysql.MySQLError{Number: 1461})), ExitTooMany},
		{"connection limit at start", withHint(&target.ConnectError{Kind: target.ConnectTooMany, Err: &mysql.MySQLError{Number: 1226}}), ExitTooMany},
		{"unknown server variable", &target.ConnectError{Kind: target.ConnectBadParams, Err: &mysql.MySQLError{Number: 1193}}, ExitUsage},
		{"TLS the server does not offer", &target.ConnectError{Kind: target.ConnectBadParams, Err: fmt.Errorf("%w (requested by the target URL's tls=true)", mysql.ErrNoTLS)}, ExitUsage},
		{"a server of another protocol", &target.ConnectError{Kind: target.ConnectWrongProtocol, Err: errors.New("received unexpected message")}, ExitUsage},
		{"bad driver parameter", fmt.Errorf("new connector: %w", target.ErrBadParams), ExitUsage},
		{"other connect error", &target.ConnectError{Kind: target.ConnectOther, Err: errors.New("boom")}, ExitFailure},
		{"changed plan on resume", fmt.Errorf("sweep: %w", sweep.ErrPlanChanged), ExitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ExitCode(tt.err); got != tt.want {
				t.Fatalf("ExitCode(%v) = %d, want %d", tt.err, got, tt.want)
			}
		})
	}
}

func TestVerdictErrorPrecedence(t *testing.T) {
	failedCheck := []results.Check{{Name: "p90 payment <= 5s"}, {Name: "mix delivery", NotJudged: true}}
	tests := []struct {
		name string
		run  results.Run
		want int
	}{
		{"ok", results.Run{Verdict: results.VerdictOK, Checks: []results.Check{{Name: "x", NotJudged: true}}}, ExitOK},
		{"failed beats a failed check", results.Run{Verdict: results.VerdictFailed, Checks: failedCheck}, ExitRunFailed},
		{"failed check", results.Run{Verdict: results.VerdictDegraded, Checks: failedCheck}, ExitCheckFailed},
		{"degraded", results.Run{Verdict: results.VerdictDegraded, VerdictReasons: []string{"outage"}}, ExitDegraded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ExitCode(verdictError(&tt.run)); got != tt.want {
				t.Fatalf("exit %d, want %d", got, tt.want)
			}
		})
	}
}
