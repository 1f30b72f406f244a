// Command gofloor is the Go twin of bench/floor/cfloor.c: the same point
// selects (ids from sysbench's default "special" distribution, drawn by
// benchpress's randgen), byte for byte, on blocking sockets with raw read and write
// system calls (as benchpress's sockio does), with no benchpress code and
// no allocation per round trip. What it costs over cfloor is what running
// the loop as Go code costs; what benchpress costs over gofloor is
// benchpress's own (bench/floor.sh). GOMAXPROCS is sessions+4, or sessions
// with -yield (no idle P for a yield to wake), unless the environment sets
// it.
//
// Usage: gofloor [-yield D] [-lock] CONNSTRING THREADS SECONDS
package main

import (
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"net"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"benchpress/internal/randgen"

	"github.com/jackc/pgx/v5/pgconn"
)

func main() {
	yield := flag.Duration("yield", 0, "pass through the Go scheduler (runtime.Gosched) at most this often, between round trips (0: never; the runtime then preempts every 10 ms)")
	lock := flag.Bool("lock", false, "run every session on its own OS thread (runtime.LockOSThread)")
	flag.Parse()
	if flag.NArg() != 3 {
		fmt.Fprintln(os.Stderr, "usage: gofloor [-yield D] [-lock] CONNSTRING THREADS SECONDS")
		os.Exit(2)
	}
	n, err1 := strconv.Atoi(flag.Arg(1))
	secs, err2 := strconv.ParseFloat(flag.Arg(2), 64)
	if err1 != nil || err2 != nil || n < 1 {
		fmt.Fprintln(os.Stderr, "gofloor: THREADS and SECONDS are numbers")
		os.Exit(2)
	}
	if os.Getenv("GOMAXPROCS") == "" {
		// As benchpress sizes a blocking run: a P per session and 4
		// spares, or no spare when the sessions yield.
		if *yield > 0 {
			runtime.GOMAXPROCS(n)
		} else {
			runtime.GOMAXPROCS(n + 4)
		}
	}
	fds := make([]int, n)
	var files []*os.File // keep the descriptors open
	for i := range fds {
		f, err := connect(flag.Arg(0))
		if err != nil {
			fmt.Fprintln(os.Stderr, "gofloor:", err)
			os.Exit(1)
		}
		files = append(files, f)
		fds[i] = int(f.Fd())
	}
	lat := make([][]time.Duration, n)
	end := time.Now().Add(time.Duration(secs * float64(time.Second)))
	start := time.Now()
	var wg sync.WaitGroup
	for i := range fds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if *lock {
				runtime.LockOSThread()
			}
			lat[i] = loop(fds[i], end, *yield, randgen.New(uint64(i)+1, 7919))
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	slices.Sort(all)
	q := func(f float64) float64 { return float64(all[int(f*float64(len(all)-1))].Microseconds()) / 1000 }
	fmt.Printf("tps=%.0f p50=%.3f p95=%.3f p99=%.3f p999=%.3f\n", float64(len(all))/elapsed.Seconds(), q(.5), q(.95), q(.99), q(.999))
	runtime.KeepAlive(files)
}

// connect opens a session, prepares s1..s4 and returns its socket in
// blocking mode.
func connect(conninfo string) (*os.File, error) {
	pc, err := pgconn.Connect(context.Background(), conninfo)
	if err != nil {
		return nil, err
	}
	h, err := pc.Hijack()
	if err != nil {
		return nil, err
	}
	tc, ok := h.Conn.(*net.TCPConn)
	if !ok {
		return nil, fmt.Errorf("not a plain TCP session (add sslmode=disable)")
	}
	f, err := tc.File()
	_ = tc.Close()
	if err != nil {
		return nil, err
	}
	fd := int(f.Fd())
	if err := syscall.SetNonblock(fd, false); err != nil {
		return nil, err
	}
	var b []byte
	for t := 1; t <= 4; t++ {
		body := append([]byte("s"+strconv.Itoa(t)), 0)
		body = append(body, "SELECT c FROM sbtest"+strconv.Itoa(t)+" WHERE id=$1"...)
		body = append(body, 0, 0, 0)
		b = append(b, 'P')
		b = binary.BigEndian.AppendUint32(b, uint32(len(body)+4))
		b = append(b, body...)
	}
	b = append(b, 'S', 0, 0, 0, 4)
	write(fd, b)
	readReady(fd, make([]byte, 8192))
	return f, nil
}

// loop runs point selects until end and returns their latencies.
func loop(fd int, end time.Time, yield time.Duration, r *randgen.Rand) []time.Duration {
	special, err := randgen.NewSBDist("special", randgen.DefaultSBDistParams)
	if err != nil {
		panic(err)
	}
	lat := make([]time.Duration, 0, 1<<20)
	buf := make([]byte, 8192)
	out := make([]byte, 0, 256)
	var ib [12]byte
	last := time.Now()
	for {
		t0 := time.Now()
		if t0.After(end) {
			return lat
		}
		if yield > 0 && t0.Sub(last) > yield {
			runtime.Gosched()
			last = t0
		}
		id := strconv.AppendInt(ib[:0], int64(special.Default(r, 1, 100000)), 10)
		tb := byte('1' + r.IntN(4))
		out = append(out[:0], 'B', 0, 0, 0, 0, 0, 's', tb, 0, 0, 0, 0, 1)
		out = binary.BigEndian.AppendUint32(out, uint32(len(id)))
		out = append(out, id...)
		out = append(out, 0, 0)
		binary.BigEndian.PutUint32(out[1:], uint32(len(out)-1))
		out = append(out, 'E', 0, 0, 0, 9, 0, 0, 0, 0, 0, 'S', 0, 0, 0, 4)
		write(fd, out)
		readReady(fd, buf)
		lat = append(lat, time.Since(t0))
	}
}

func write(fd int, p []byte) {
	for len(p) > 0 {
		n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			fmt.Fprintln(os.Stderr, "gofloor: write:", e)
			os.Exit(1)
		}
		p = p[n:]
	}
}

// readReady reads replies until ReadyForQuery.
func readReady(fd int, buf []byte) {
	have := 0
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&buf[have])), uintptr(len(buf)-have))
		if e == syscall.EINTR {
			runtime.Gosched() // the runtime's preemption signal
			continue
		}
		if e != 0 || n == 0 {
			fmt.Fprintln(os.Stderr, "gofloor: read:", e)
			os.Exit(1)
		}
		have += int(n)
		off := 0
		for off+5 <= have {
			l := int(binary.BigEndian.Uint32(buf[off+1:]))
			if off+1+l > have {
				break
			}
			switch buf[off] {
			case 'Z':
				return
			case 'E':
				fmt.Fprintln(os.Stderr, "gofloor: server error:", string(buf[off+5:off+1+l]))
				os.Exit(1)
			}
			off += 1 + l
		}
		have = copy(buf, buf[off:have])
	}
}
