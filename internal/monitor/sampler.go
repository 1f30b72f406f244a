package monitor

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Sampler records a host's figures once per interval into a series. Use
// [NewSampler], then Start and Stop once each. Its methods are safe for
// concurrent use.
type Sampler struct {
	src counterSource

	mu      sync.Mutex
	started bool
	samples []Sample
	err     error // first read error
	cancel  context.CancelFunc
	done    chan struct{}
}

// NewSampler returns a Sampler of the local host (gopsutil).
func NewSampler() *Sampler {
	return &Sampler{src: localSource{}}
}

// Start reads a baseline now and then, until ctx ends or Stop is called,
// appends one [Sample] per interval covering the time since the previous
// reading. It returns an error if interval is not positive or the Sampler
// was already started. Read failures do not stop sampling: the sample keeps
// what could be read, and the first failure is kept for [Sampler.Err].
func (s *Sampler) Start(ctx context.Context, interval time.Duration) error {
	if interval <= 0 {
		return errors.New("monitor: sampling interval must be positive")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return errors.New("monitor: sampler already started")
	}
	s.started = true
	ctx, s.cancel = context.WithCancel(ctx)
	s.done = make(chan struct{})
	prev, err := s.src.read(ctx)
	s.noteErr(err)
	go s.loop(ctx, interval, prev)
	return nil
}

func (s *Sampler) loop(ctx context.Context, interval time.Duration, prev Counters) {
	defer close(s.done)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		cur, err := s.src.read(ctx)
		if ctx.Err() != nil {
			return // a read cut short by Stop is not a sample
		}
		s.mu.Lock()
		s.noteErr(err)
		s.samples = append(s.samples, rates(prev, cur))
		s.mu.Unlock()
		prev = cur
	}
}

// noteErr keeps the first error; s.mu must be held.
func (s *Sampler) noteErr(err error) {
	if err != nil && s.err == nil {
		s.err = err
	}
}

// Stop ends sampling, waits for the sampling goroutine and returns the
// series, oldest first. It may be called more than once (each call returns
// the whole series) and before Start (it then returns nil).
func (s *Sampler) Stop() []Sample {
	s.mu.Lock()
	cancel, done := s.cancel, s.done
	s.mu.Unlock()
	if cancel == nil {
		return nil
	}
	cancel()
	<-done
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Sample(nil), s.samples...)
}

// Err returns the first error met while reading the host, or nil.
func (s *Sampler) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}
