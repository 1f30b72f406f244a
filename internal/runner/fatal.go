package runner

import "sync"

// fatalStop ends the run at the first error of a fatal class (a missing
// privilege, an exhausted server limit): every terminal would fail the same
// way, so measuring on would only count the failure.
type fatalStop struct {
	once  sync.Once
	done  chan struct{}
	mu    sync.Mutex
	first error
}

func newFatalStop() *fatalStop { return &fatalStop{done: make(chan struct{})} }

// trigger records err (the first one wins) and signals the runner.
func (f *fatalStop) trigger(err error) {
	f.once.Do(func() {
		f.mu.Lock()
		f.first = err
		f.mu.Unlock()
		close(f.done)
	})
}

// err is the error that stopped the run, or nil.
func (f *fatalStop) err() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.first
}
