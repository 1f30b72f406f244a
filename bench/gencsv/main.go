// Command gencsv writes the TPC-C data set of benchpress as CSV files (one
// per table and unit, <table>.<unit>.csv) in the MySQL LOAD DATA or the
// PostgreSQL COPY dialect, so that bench/load.sh can time the servers' own
// clients loading the same data. With -discard it only generates and
// encodes (to measure the generator's CPU cost per warehouse).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"benchpress/internal/load"
	"benchpress/internal/workload/tpcc"
)

type unit struct {
	table              string
	wlo, whi, slo, shi int
}

func units(warehouses int) []unit {
	var us []unit
	for lo := 1; lo <= tpcc.NumItems; lo += 2 * tpcc.ItemChunk {
		us = append(us, unit{"item", 0, 0, lo, lo + 2*tpcc.ItemChunk - 1})
	}
	for w := 1; w <= warehouses; w++ {
		us = append(us, unit{"warehouse", w, w, 0, 0})
		for _, t := range []string{"district", "customer", "history", "orders", "new_order", "order_line"} {
			us = append(us, unit{t, w, w, 1, tpcc.DistrictsPerWarehouse})
		}
		us = append(us, unit{"stock", w, w, 1, tpcc.NumItems})
	}
	return us
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

func main() {
	warehouses := flag.Int("warehouses", 1, "warehouses")
	seed := flag.Uint64("seed", 1, "data seed")
	dir := flag.String("dir", "", "output directory (files <table>.<unit>.csv)")
	dialect := flag.String("dialect", "mysql", "mysql (NULL as \\N) or postgres (NULL as empty field)")
	discard := flag.Bool("discard", false, "generate and encode only; print CPU seconds per warehouse")
	flag.Parse()
	d := load.CSVMySQL
	if *dialect == "postgres" {
		d = load.CSVPostgres
	}
	p := tpcc.NewMeta("standard", *warehouses, *seed, time.Now()).GenParams()
	cpu0, wall0 := cpuSeconds(), time.Now()
	var bytes int64
	for _, u := range units(*warehouses) {
		src, err := tpcc.NewSource(u.table, p, u.wlo, u.whi, u.slo, u.shi)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		r := load.NewCSVReader(src, d, nil)
		if *discard {
			n, _ := io.Copy(io.Discard, r)
			bytes += n
			continue
		}
		name := fmt.Sprintf("%s.%d-%d_%d-%d.csv", u.table, u.wlo, u.whi, u.slo, u.shi)
		f, err := os.Create(filepath.Join(*dir, name))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		w := bufio.NewWriterSize(f, 1<<20)
		n, err := io.Copy(w, r)
		bytes += n
		if err == nil {
			err = w.Flush()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
			os.Exit(1)
		}
	}
	cpu := cpuSeconds() - cpu0
	fmt.Printf("generated %d warehouse(s), %.1f MB in %.2fs wall, %.2f CPU-s (%.3f CPU-s per warehouse)\n",
		*warehouses, float64(bytes)/1e6, time.Since(wall0).Seconds(), cpu, cpu/float64(*warehouses))
}
