// Package parallel runs a function over indexes with a bound on how many
// calls are in flight: the shape of opening thousands of sessions, making
// their terminals and sending each one statement, where one after another
// would dominate a run's start and all at once would overrun the server's
// connection backlog.
package parallel

import "sync"

// Each calls f(i) for every i in [0, n), at most limit at a time (limit <= 0
// means one at a time), and returns once every call has returned. errs[i] is
// f(i)'s error; errs is nil when every call succeeded. Calls start in index
// order; f must be safe to call concurrently when limit > 1.
func Each(n, limit int, f func(i int) error) (errs []error) {
	if limit <= 0 {
		limit = 1
	}
	out := make([]error, n)
	sem := make(chan struct{}, limit)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out[i] = f(i)
		}()
	}
	wg.Wait()
	for _, e := range out {
		if e != nil {
			return out
		}
	}
	return nil
}

// First returns the index of the lowest-index non-nil error in errs (-1
// when there is none) and how many there are.
func First(errs []error) (at, failed int) {
	at = -1
	for i, e := range errs {
		if e != nil {
			if at < 0 {
				at = i
			}
			failed++
		}
	}
	return at, failed
}
