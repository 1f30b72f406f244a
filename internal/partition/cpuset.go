package partition

import (
	"fmt"
	"strconv"
	"strings"
)

// parseCPUSets parses --cpuset: n CPU lists separated by ':', each in
// taskset -c / numactl --physcpubind syntax ("0-3,8,10-11"). Empty means
// no pinning (nil).
func parseCPUSets(s string, n int) ([][]int, error) {
	if s == "" {
		return nil, nil
	}
	lists := strings.Split(s, ":")
	if len(lists) != n {
		return nil, fmt.Errorf("--cpuset %q: want %d CPU lists separated by ':' (one per process), got %d", s, n, len(lists))
	}
	out := make([][]int, n)
	for i, l := range lists {
		cpus, err := parseCPUList(l)
		if err != nil {
			return nil, fmt.Errorf("--cpuset %q: list %d: %w", s, i+1, err)
		}
		out[i] = cpus
	}
	return out, nil
}

// parseCPUList parses "0-3,8" into [0 1 2 3 8].
func parseCPUList(s string) ([]int, error) {
	var cpus []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		a, b, isRange := strings.Cut(part, "-")
		lo, err := strconv.Atoi(a)
		if err != nil || lo < 0 {
			return nil, fmt.Errorf("%q is not a CPU number or range", part)
		}
		hi := lo
		if isRange {
			if hi, err = strconv.Atoi(b); err != nil || hi < lo {
				return nil, fmt.Errorf("%q is not a CPU range", part)
			}
		}
		if hi >= 1024 {
			return nil, fmt.Errorf("CPU %d out of range", hi)
		}
		for c := lo; c <= hi; c++ {
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}
