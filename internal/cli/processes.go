package cli

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
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"benchpress/internal/partition"
	"benchpress/internal/registry"
	"benchpress/internal/results"
	"benchpress/internal/sweep"
)

// childFlags are not replayed to child processes: the parent sets them.
var childFlags = map[string]bool{"processes": true, "cpuset": true, "json": true, "partition": true, "run-id": true, "start-at": true, "check": true}

// runLocal runs p.Processes partitions of the run in local child processes
// of this binary (children gives the command line without partition
// flags), each optionally pinned to its CPU list, meeting at the barrier
// table; then merges their results. If a child fails, the others are
// interrupted and nothing is merged; the error names the child and keeps
// its exit code.
func runLocal(ctx context.Context, app *App, p *partition.Flags, children func() []string, quiet bool) (*results.Run, error) {
	n := p.Processes
	if n < 2 {
		return nil, usagef("--processes must be >= 2 (got %d)", n)
	}
	if p.Partition != "" || p.RunID != "" || p.StartAt != "" {
		return nil, usagef("--processes starts the partitions itself: drop --partition, --run-id and --start-at")
	}
	if children == nil {
		return nil, usagef("--processes is not available here")
	}
	sets, err := parseCPUSets(p.CPUSet, n)
	if err != nil {
		return nil, &UsageError{Err: err}
	}
	if app.Executable == "" {
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
	base := children()
	if !quiet {
		fmt.Fprintf(app.Err, "starting %d partitions as local processes (run %s)\n", n, runID)
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
		cmd := exec.CommandContext(childCtx, app.Executable, argv...)
		cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
		cmd.WaitDelay = 15 * time.Second
		cmd.Stdout = io.Discard
		lw := &lastLineWriter{prefix: fmt.Sprintf("[partition %d/%d] ", i, n)}
		if !quiet {
			lw.w = app.Err
		}
		cmd.Stderr = lw
		var set []int
		if sets != nil {
			set = sets[i]
		}
		if err := startPinned(cmd, set); err != nil {
			cancel()
			wg.Wait()
			return nil, fmt.Errorf("start partition %d/%d: %w", i, n, err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := cmd.Wait()
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
		fmt.Fprintf(app.Err, "interrupted: the partitions' results so far are in %s (not merged)\n", dir)
		return nil, ErrInterrupted
	}
	if first >= 0 {
		o := outs[first]
		code := ExitFailure
		var ee *exec.ExitError
		if errors.As(o.err, &ee) && ee.ExitCode() > 0 {
			code = ee.ExitCode()
		}
		msg := strings.TrimPrefix(o.last, "benchpress: ")
		if msg == "" {
			msg = o.err.Error()
		}
		return nil, &childError{code: code, msg: fmt.Sprintf("partition %d/%d failed (exit %d), nothing merged: %s", first, n, code, msg)}
	}
	parts := make([]*results.Run, n)
	for i := range parts {
		if parts[i], err = results.Read(filepath.Join(dir, fmt.Sprintf("part-%d.json", i))); err != nil {
			return nil, err
		}
	}
	return mergeRuns(parts, app.policy.minSuccess)
}

// childError is a child process's failure; the parent exits with its code.
type childError struct {
	code int
	msg  string
}

func (e *childError) Error() string { return e.msg }
func (e *childError) ExitCode() int { return e.code }

// newRunID returns a fresh run id for local partitions.
func newRunID() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "local-" + time.Now().UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b)
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

// flagArgs is the child command line of `benchpress FAMILY run ARGS` with
// the flags given on fs (those the parent sets for each child left out).
func flagArgs(family string, args []string, fs *pflag.FlagSet) func() []string {
	return func() []string {
		out := append([]string{family, "run"}, args...)
		fs.Visit(func(f *pflag.Flag) {
			if childFlags[f.Name] {
				return
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

// stepArgs is the child command line of a sweep step: the plan's options
// as flags (a list-valued option once per element, as plans set them) and
// the step's target, concurrency, warm-up and duration.
func stepArgs(st sweep.Step) []string {
	family, variant, _ := strings.Cut(st.Workload, "/")
	out := []string{family, "run"}
	if variant != "" {
		out = append(out, variant)
	}
	fs := pflag.NewFlagSet(family, pflag.ContinueOnError)
	if m, _, err := registry.Lookup(st.Workload); err == nil {
		m.Run.New().Flags(fs)
	}
	keys := make([]string, 0, len(st.Options))
	for k := range st.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		name := strings.ReplaceAll(k, "_", "-")
		if childFlags[name] {
			continue
		}
		vals := []string{st.Options[k]}
		if f := fs.Lookup(name); f != nil && (strings.HasSuffix(f.Value.Type(), "Array") || strings.HasSuffix(f.Value.Type(), "Slice")) {
			vals = strings.Split(st.Options[k], ",")
		}
		for _, v := range vals {
			out = append(out, "--"+name+"="+v)
		}
	}
	conc := "--terminals="
	if fs.Lookup("terminals") == nil {
		conc = "--threads="
	}
	return append(out, "--target="+st.Target, conc+fmt.Sprint(st.Concurrency),
		"--warmup="+st.Warmup.String(), "--duration="+st.Duration.String(), "--report-interval=0")
}
