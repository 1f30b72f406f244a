package monitor

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/disk"
	"github.com/shirou/gopsutil/v4/mem"
	"github.com/shirou/gopsutil/v4/net"
)

// localSource reads the local host through gopsutil. On a partial failure
// its read returns what it could read together with an error.
type localSource struct{}

func (localSource) read(ctx context.Context) (Counters, error) {
	var errs []error
	c := Counters{At: time.Now()}
	if ts, err := cpu.TimesWithContext(ctx, false); err != nil || len(ts) == 0 {
		errs = append(errs, fmt.Errorf("cpu times: %w", errOrEmpty(err)))
	} else {
		t := ts[0]
		c.CPU = CPUTimes{
			Busy: t.User + t.Nice + t.System + t.Irq + t.Softirq + t.Steal,
			Idle: t.Idle + t.Iowait,
			User: t.User + t.Nice, System: t.System + t.Irq + t.Softirq, Iowait: t.Iowait, Steal: t.Steal,
		}

	}
	if vm, err := mem.VirtualMemoryWithContext(ctx); err != nil {
		errs = append(errs, fmt.Errorf("memory: %w", err))
	} else {
		// Total minus available, as node_exporter's figures give it (gopsutil's
		// Used also leaves out reclaimable slab, so the two would differ).
		c.MemTotalBytes = vm.Total
		if vm.Available <= vm.Total {
			c.MemUsedBytes = vm.Total - vm.Available
		}
	}
	if ns, err := net.IOCountersWithContext(ctx, true); err != nil {
		errs = append(errs, fmt.Errorf("network counters: %w", err))
	} else {
		c.Net = make(map[string]IOBytes, len(ns))
		for _, n := range ns {
			c.Net[n.Name] = IOBytes{In: n.BytesRecv, Out: n.BytesSent}
		}
	}
	if ds, err := disk.IOCountersWithContext(ctx); err != nil {
		errs = append(errs, fmt.Errorf("disk counters: %w", err))
	} else {
		c.Disk = make(map[string]IOBytes, len(ds))
		c.DiskBusyS = make(map[string]float64, len(ds))
		for name, d := range ds {
			c.Disk[name] = IOBytes{In: d.ReadBytes, Out: d.WriteBytes}
			c.DiskBusyS[name] = float64(d.IoTime) / 1000
		}
	}
	return c, errors.Join(errs...)
}

func errOrEmpty(err error) error {
	if err != nil {
		return err
	}
	return errors.New("no data")
}
