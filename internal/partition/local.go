package partition

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"benchpress/internal/results"
	"benchpress/internal/usage"
)

// IsChildFlag tells whether the flag name is one the parent sets for each
// child process (--processes, --cpuset, --json, --partition, --run-id,
// --start-at, --check): such flags are not replayed to the children.
func IsChildFlag(name string) bool {
	switch name {
	case "processes", "cpuset", "json", "partition", "run-id", "start-at", "check":
		return true
	}
	return false
}

// IsParentFlag tells whether the flag name belongs to the parent process
// alone and is not replayed to the children: --metrics-addr (every child
// would bind the same address) and the hidden --cpuprofile and --memprofile
// (every child would write the same file).
func IsParentFlag(name string) bool {
	switch name {
	case "metrics-addr", "cpuprofile", "memprofile":
		return true
	}
	return false
}

// ErrLocalInterrupted is returned by RunLocal when ctx was cancelled (Ctrl-C):
// the children wrote what they measured to a kept directory (named on
// Local.Err) and nothing is returned.
var ErrLocalInterrupted = errors.New("interrupted")

// Local is how RunLocal starts the child processes.
type Local struct {
	// Executable is the path of this binary, started as each child.
	Executable string
	// Children gives the child command line without the partition flags;
	// nil means --processes is not available for the command.
	Children func() []string
	// Env are variables ("NAME=value") set in the children's environment
	// on top of Environ's, which they inherit: a secret such as the
	// target's password goes there, never on a command line (visible to
	// every user of the machine).
	Env []string
	// Environ is this process's environment (the process edge's
	// os.Environ); nil with Env set gives the children Env alone.
	Environ func() []string
	// Err receives the children's stderr (each line prefixed with its
	// partition) and the progress messages; only the failure and
	// interruption messages when Quiet.
	Err   io.Writer
	Quiet bool
	// Merge merges the partitions' results (in partition order). When it
	// fails, the partitions' files are kept and the error says where: a
	// long run's measurements are not thrown away with a refused merge.
	Merge func([]*results.Run) (*results.Run, error)
}

// RunLocal runs p.Processes partitions of the run in local child processes
// of l.Executable, each optionally pinned to its CPU list (--cpuset),
// meeting at the barrier table, and returns their results merged by
// l.Merge. Bad flags are *usage.Error. If a child fails, the others are
// interrupted and nothing is returned; the error is a *ChildError naming
// the child and keeping its exit code. If the merge fails, its error is
// returned with the directory that keeps the partitions' files.
func RunLocal(ctx context.Context, p *Flags, l Local) (*results.Run, error) {
	n := p.Processes
	if n < 2 {
		return nil, usage.Errorf("--processes must be >= 2 (got %d)", n)
	}
	if p.Partition != "" || p.RunID != "" || p.StartAt != "" {
		return nil, usage.Errorf("--processes starts the partitions itself: drop --partition, --run-id and --start-at")
	}
	if l.Children == nil {
		return nil, usage.Errorf("--processes is not available here")
	}
	sets, err := parseCPUSets(p.CPUSet, n)
	if err != nil {
		return nil, &usage.Error{Err: err}
	}
	if l.Executable == "" {
		return nil, errors.New("--processes: the path of this binary is unknown")
	}
	dir, err := os.MkdirTemp("", "benchpress-parts-")
	if err != nil {
		return nil, fmt.Errorf("--processes: %w", err)
	}
	keep := false
	defer func() {
		if !keep {
			os.RemoveAll(dir)
		}
	}()
	runID := newRunID()
	base := l.Children()
	if !l.Quiet {
		fmt.Fprintf(l.Err, "starting %d partitions as local processes (run %s)\n", n, runID)
	}

	childCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	type outcome struct {
		err  error
		at   time.Time
		last string
	}
	outs := make([]outcome, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		argv := append(append([]string(nil), base...),
			"--partition", fmt.Sprintf("%d/%d", i, n), "--run-id", runID,
			"--json", filepath.Join(dir, fmt.Sprintf("part-%d.json", i)))
		cmd := exec.CommandContext(childCtx, l.Executable, argv...)
		cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
		cmd.WaitDelay = 15 * time.Second
		// Out of the terminal's process group: a Ctrl-C reaches this
		// process alone, which interrupts each child once (Cancel). A
		// child that got the terminal's SIGINT and then the forwarded one
		// would die of its second signal before it saved its result.
		ownProcessGroup(cmd)
		if len(l.Env) > 0 {
			var base []string
			if l.Environ != nil {
				base = l.Environ()
			}
			cmd.Env = append(base, l.Env...)
		}
		cmd.Stdout = io.Discard
		lw := &lastLineWriter{prefix: fmt.Sprintf("[partition %d/%d] ", i, n)}
		if !l.Quiet {
			lw.w = l.Err
		}
		// Each child's stderr is kept whole in part-N.log beside its
		// result: a failed run keeps the directory, and in a sweep (Quiet)
		// the log is where the child's error samples and hints are.
		if f, err := os.Create(filepath.Join(dir, fmt.Sprintf("part-%d.log", i))); err == nil {
			defer f.Close()
			cmd.Stderr = io.MultiWriter(lw, f)
		} else {
			cmd.Stderr = lw
		}
		var set []int
		if sets != nil {
			set = sets[i]
		}
		if err := startPinned(cmd, set); err != nil {
			if childCtx.Err() != nil && ctx.Err() == nil {
				// A partition started before this one has already
				// failed and cancelled the rest: its failure is the
				// run's, reported below; start no more.
				break
			}
			cancel()
			wg.Wait()
			return nil, fmt.Errorf("start partition %d/%d: %w", i, n, err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := cmd.Wait()
			if err != nil && judgedExit(err) && savedOK(filepath.Join(dir, fmt.Sprintf("part-%d.json", i))) {
				// A judged run that ended ok wrote its result: merged like
				// the others, the merged verdict sets the exit code.
				err = nil
			}
			outs[i] = outcome{err: err, at: time.Now(), last: lw.last()}
			if err != nil {
				cancel() // one failed: stop the others, merge nothing
			}
		}()
	}
	wg.Wait()
	first := -1
	for i, o := range outs {
		if o.err != nil && (first < 0 || o.at.Before(outs[first].at)) {
			first = i
		}
	}
	if ctx.Err() != nil {
		// Ctrl-C: the children wrote what they measured; nothing is merged
		// (an interrupted partition is not mergeable), the files are kept.
		keep = true
		fmt.Fprintf(l.Err, "interrupted: the partitions' results so far are in %s (not merged)\n", dir)
		return nil, ErrLocalInterrupted
	}
	if first >= 0 {
		o := outs[first]
		code := 1 // the CLI's ExitFailure
		var ee *exec.ExitError
		if errors.As(o.err, &ee) && ee.ExitCode() > 0 {
			code = ee.ExitCode()
		}
		msg := strings.TrimPrefix(o.last, "benchpress: ")
		if msg == "" {
			msg = o.err.Error()
		}
		// The other partitions' measurements and every child's log stay.
		keep = true
		return nil, &ChildError{code: code, Dir: dir, msg: fmt.Sprintf("partition %d/%d failed (exit %d), nothing merged: %s (the partitions' results and logs are kept in %s)", first, n, code, msg, dir)}
	}
	parts := make([]*results.Run, n)
	for i := range parts {
		if parts[i], err = results.Read(filepath.Join(dir, fmt.Sprintf("part-%d.json", i))); err != nil {
			return nil, err
		}
	}
	merged, err := l.Merge(parts)
	if err != nil {
		keep = true
		return nil, &MergeError{Dir: dir, Err: err}
	}
	return merged, nil
}

// MergeError is a refused merge of local partitions; Dir keeps their
// files (part-N.json), which `benchpress merge` takes once the cause is
// understood.
type MergeError struct {
	Dir string
	Err error
}

func (e *MergeError) Error() string {
	return fmt.Sprintf("%v (the partitions' results are kept in %s)", e.Err, e.Dir)
}

func (e *MergeError) Unwrap() error { return e.Err }

// judgedExit tells whether a child's exit is a judged run's (the CLI's
// exit codes 8: a check failed, 10: verdict failed, 11: verdict degraded),
// which saved its result before exiting.
func judgedExit(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	switch ee.ExitCode() {
	case 8, 10, 11:
		return true
	}
	return false
}

// savedOK tells whether path holds a result whose run ended ok (its
// verdict may be anything).
func savedOK(path string) bool {
	r, err := results.Read(path)
	return err == nil && r.Status == "ok"
}

// ChildError is a child process's failure; the parent exits with its code
// (ExitCode).
type ChildError struct {
	code int
	msg  string
	// Dir keeps the partitions' files: part-N.json of those that saved a
	// result, part-N.log with each child's stderr.
	Dir string
}

func (e *ChildError) Error() string { return e.msg }
func (e *ChildError) ExitCode() int { return e.code }

// newRunID returns a fresh run id for local partitions.
func newRunID() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return results.LocalRunIDPrefix + time.Now().UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b)
}

// lastLineWriter forwards a child's stderr line by line with a prefix (when
// w is set) and keeps its last non-empty line (the error main prints).
type lastLineWriter struct {
	mu     sync.Mutex
	w      io.Writer
	prefix string
	buf    []byte
	lastL  string
}

func (l *lastLineWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, b...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			break
		}
		line := string(l.buf[:i])
		l.buf = l.buf[i+1:]
		if strings.TrimSpace(line) != "" {
			l.lastL = line
		}
		if l.w != nil {
			fmt.Fprintf(l.w, "%s%s\n", l.prefix, line)
		}
	}
	return len(b), nil
}

func (l *lastLineWriter) last() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if s := strings.TrimSpace(string(l.buf)); s != "" {
		return s
	}
	return l.lastL
}

// ChildArgs is the child command line of `benchpress FAMILY run ARGS` with
// the flags given on fs (those the parent sets for each child, IsChildFlag,
// and those of the parent alone, IsParentFlag, left out; a slice flag once
// per element). A password in the --target URL is not on it: the URL goes
// without it, with --password-env=ChildPasswordEnv, and ChildEnv holds it.
func ChildArgs(family string, args []string, fs *pflag.FlagSet) func() []string {
	return func() []string {
		out := append([]string{family, "run"}, args...)
		hidden := ChildEnv(fs) != nil
		fs.Visit(func(f *pflag.Flag) {
			if IsChildFlag(f.Name) || IsParentFlag(f.Name) {
				return
			}
			if hidden && f.Name == "target" {
				u, _ := SplitPassword(f.Value.String())
				out = append(out, "--target="+u, "--password-env="+ChildPasswordEnv)
				return
			}
			if hidden && f.Name == "password-env" {
				return // the URL's password wins over the variable (target.Flags.Resolve)
			}
			if sv, ok := f.Value.(pflag.SliceValue); ok {
				for _, v := range sv.GetSlice() {
					out = append(out, "--"+f.Name+"="+v)
				}
				return
			}
			out = append(out, "--"+f.Name+"="+f.Value.String())
		})
		return out
	}
}
