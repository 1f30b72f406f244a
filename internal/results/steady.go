package results

import (
	"fmt"
	"math"
)

// A benchmark figure means something only in steady state: a throughput
// still rising (a cold cache, a proxy or pool still warming up, a warm-up
// too short) or falling (the server or the load machine slowing: a
// checkpoint storm, a filling disk, throttling) at the end of the window
// is not the system's throughput. Steady compares the completion rate of
// the first and the last third of the measurement window's series.
const (
	// steadyMinIntervals is the shortest measured series judged: thirds of
	// fewer than three intervals are one noisy second or two.
	steadyMinIntervals = 9
	// steadyMaxChange is the largest difference between the thirds'
	// rates, as a fraction of the larger, of a run in steady state.
	// Measured on a 2-vCPU VM (30 s windows; TPC-C 8 and 16 terminals,
	// sysbench oltp_read_write 8 threads and oltp_point_select, MariaDB
	// and PostgreSQL, closed loop and --rate): undisturbed runs moved by
	// 0 to 23 % (TPC-C on MariaDB after a 10 s warm-up rose by 14 to 23 %
	// as its buffer pool warmed); runs that other sessions' load on the
	// same VM slowed for 10 to 20 s moved by 31 to 61 %; a cold-started
	// proxy by 63 %.
	steadyMaxChange = 0.30
	// steadyMinSigmas: the difference must also exceed this many standard
	// deviations of the counts' Poisson noise (sqrt(first + last)), so
	// that slow runs (think times, few terminals) are not judged by chance.
	steadyMinSigmas = 3
)

// Steadiness is how the measurement window's throughput moved: the
// completion rate of its first and last third (per minute of New-Orders
// for TPC-C, as tpmC, else operations per second).
type Steadiness struct {
	First, Last float64
	Unit        string // "tpmC" or "per second"
	// Change is |Last - First| as a fraction of the larger.
	Change float64
	// Judged: the window had at least steadyMinIntervals intervals and
	// the thirds enough completions for the change to exceed the noise.
	Judged bool
}

// Steady measures r's series (nil when the window has fewer than
// steadyMinIntervals measured intervals). TPC-C is judged by its
// New-Orders (the tpmC series), other workloads by all completed
// operations.
func Steady(r *Run) *Steadiness {
	var ivs []Interval
	for _, iv := range r.Series {
		if iv.Phase == "measure" && iv.DurS > 0 {
			ivs = append(ivs, iv)
		}
	}
	ivs = withoutDrain(ivs, r.Summary.DurationS)
	n := len(ivs)
	if n < steadyMinIntervals {
		return nil
	}
	tpcc := false
	for _, iv := range ivs {
		if iv.TpmC > 0 {
			tpcc = true
			break
		}
	}
	third := n / 3
	count := func(part []Interval) (c, secs float64) {
		for _, iv := range part {
			secs += iv.DurS
			if tpcc {
				c += iv.TpmC * iv.DurS / 60
				continue
			}
			for _, o := range iv.Ops {
				c += float64(o.Count)
			}
		}
		return c, secs
	}
	c1, s1 := count(ivs[:third])
	c2, s2 := count(ivs[n-third:])
	st := &Steadiness{First: c1 / s1, Last: c2 / s2, Unit: "per second"}
	if tpcc {
		st.First, st.Last, st.Unit = 60*st.First, 60*st.Last, "tpmC"
	}
	if hi := math.Max(st.First, st.Last); hi > 0 {
		st.Change = math.Abs(st.Last-st.First) / hi
	}
	// The counts' difference against its noise, the thirds scaled to the
	// same length.
	a, b := c1, c2*s1/s2
	st.Judged = math.Abs(a-b) > steadyMinSigmas*math.Sqrt(a+b)
	return st
}

// withoutDrain drops the series' drain interval: after the window closes
// the transactions in flight finish (up to 30 s) and their completions
// are saved as one more "measure" interval as long as the drain took (26 s
// with 23 New-Orders per minute at 2048 PostgreSQL terminals), which is not
// the window's throughput. An interval that starts when the window of
// windowS seconds (from the first interval's start) has ended, within half
// a tick, is the drain.
func withoutDrain(ivs []Interval, windowS float64) []Interval {
	if len(ivs) == 0 || windowS <= 0 {
		return ivs
	}
	end := ivs[0].T - ivs[0].DurS + windowS
	for len(ivs) > 0 {
		last := ivs[len(ivs)-1]
		if last.T-last.DurS < end-0.5 {
			break
		}
		ivs = ivs[:len(ivs)-1]
	}
	return ivs
}

// SteadyReason is the verdict's line for a run not in steady state ("" when
// it was, or could not be judged): the thirds' rates differ by more than
// steadyMaxChange of the larger. It names the likely cause: a rise, a
// warm-up too short; a fall, the server or the load machine slowing; with
// keying and think times (config "wait"), the terminals' first cycles,
// which start in step (all key their first transaction at once) and
// spread out only over several cycles of 10 to 30 s.
func SteadyReason(r *Run) string {
	st := Steady(r)
	if st == nil || !st.Judged || st.Change <= steadyMaxChange {
		return ""
	}
	unit := st.Unit
	if unit == "per second" {
		unit = "operations per second"
	}
	dir, why := "fell", "the server or the load machine slowed: see the series and the watched hosts"
	if st.Last > st.First {
		dir, why = "rose", "lengthen the warm-up or the window"
	}
	if wait, _ := r.Config["wait"].(bool); wait {
		why = "with --wait every terminal starts keying at once, and the keying and think times take minutes to spread out: lengthen --warmup"
	}
	return fmt.Sprintf("not in steady state: throughput %s from %s to %s %s between the first and the last third of the window (%s)",
		dir, thousands(st.First), thousands(st.Last), unit, why)
}

// thousands formats v rounded, with comma thousands separators (one
// decimal below 100, where rounding would hide a slow run's figure).
func thousands(v float64) string {
	if v < 100 {
		return fmt.Sprintf("%.1f", v)
	}
	s := fmt.Sprintf("%.0f", v)
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}
