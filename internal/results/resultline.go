package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// LinePrefix starts the one-line result `--json -` prints on stdout,
// so that `kubectl logs` of every pod of a partitioned Job can be handed to
// `benchpress merge` as they are.
const LinePrefix = "benchpress-result "

// WriteLine prints run as one JSON line starting with LinePrefix.
func WriteLine(w io.Writer, run *Run) error {
	b, err := json.Marshal(run)
	if err != nil {
		return fmt.Errorf("write result line: %w", err)
	}
	_, err = fmt.Fprintf(w, "%s%s\n", LinePrefix, b)
	return err
}

// ReadAll reads path: a result file (one JSON document), or any text
// (e.g. `kubectl logs` output) holding result lines; it returns every
// result found.
func ReadAll(path string) ([]*Run, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read result: %w", err)
	}
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '{' {
		r, err := Read(path)
		if err != nil {
			return nil, err
		}
		return []*Run{r}, nil
	}
	var out []*Run
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 1<<20), 256<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		i := strings.Index(line, LinePrefix)
		if i < 0 {
			continue
		}
		r, err := Parse([]byte(line[i+len(LinePrefix):]))
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds neither a result file nor %q lines", path, strings.TrimSpace(LinePrefix))
	}
	return out, nil
}
