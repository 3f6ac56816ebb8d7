package contract

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Budget bounds the comparison of one description. Its shape limits are
// checked before the comparison starts (shape.go): a side past them is
// not compared, and the axis is partial. Time is how long the axis waits
// for a comparison: past it, or when the caller's context ends (a newer
// version, the server's exit), the file is not compared either, and the
// comparison — which oasdiff cannot stop — runs to its end, within the
// shape limits, for the Cache to keep.
type Budget struct {
	Time time.Duration
	// Nodes and Work bound each side's shape: its nodes, and the sum of
	// the depths they sit at.
	Nodes, Work int64
}

// The default budget, measured on generated descriptions
// (TestDescriptionWithinTheBudget): at the node limit, a wide description
// (1,100 endpoints, 2 MB of YAML) costs about 3 s of CPU, 200 MB of heap
// at most and 400 MB allocated; at the work limit, a deep one (8 schemas
// 280 levels deep) about 0.5 s, 20 MB and 200 MB. The time is the wait
// on a busy machine, four times the CPU.
const (
	DefaultTime  = 20 * time.Second
	DefaultNodes = 80_000
	DefaultWork  = 2_000_000
)

func (b Budget) orDefault() Budget {
	if b.Time <= 0 {
		b.Time = DefaultTime
	}
	if b.Nodes <= 0 {
		b.Nodes = DefaultNodes
	}
	if b.Work <= 0 {
		b.Work = DefaultWork
	}
	return b
}

// errCut is why a comparison was not made or not waited for: the budget,
// a newer version, the exit. The axis counts such a file as cut short
// (partial), not as unavailable.
type errCut struct{ why string }

func (e *errCut) Error() string { return e.why }

// IsCut reports whether err says a comparison was cut short.
func IsCut(err error) bool {
	var c *errCut
	return errors.As(err, &c)
}

// fits reports, as an errCut, a side whose shape exceeds b.
func (b Budget) fits(side, name string, text []byte) error {
	s := measure(text)
	switch {
	case s.nodes > b.Nodes:
		return &errCut{fmt.Sprintf("the %s %s is too large to compare within the budget: %d nodes, at most %d", side, name, s.nodes, b.Nodes)}
	case s.work > b.Work:
		return &errCut{fmt.Sprintf("the %s %s is nested too deeply to compare within the budget: %d levels deep, %d units of work, at most %d", side, name, s.depth, s.work, b.Work)}
	}
	return nil
}

// Cache keeps comparisons by the texts compared, so that a review's
// versions and requests compare a specification once, and runs each at
// most once at a time (single flight), one comparison at a time: a
// comparison nobody waits for any more by its turn never starts. Safe for
// concurrent use; bounded.
type Cache struct {
	mu      sync.Mutex
	m       map[[sha256.Size]byte]compared
	flights map[[sha256.Size]byte]*flight
	turn    chan struct{} // holds a token while a comparison runs
	runs    int64         // comparisons run
}

// Stats are the comparisons a Cache ran, and those asked for and not
// ended yet (waiting for their turn or running).
func (c *Cache) Stats() (runs int64, pending int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.runs, len(c.flights)
}

type compared struct {
	changes []Change
	err     error
}

// flight is a comparison under way; waiters counts those waiting for it.
type flight struct {
	done    chan struct{}
	v       compared
	waiters int
}

const maxCached = 256

// compare compares old and new, within b, waiting for it until ctx ends.
func (c *Cache) compare(ctx context.Context, name string, old, new []byte, b Budget) ([]Change, error) {
	if err := b.fits("old", name, old); err != nil {
		return nil, err
	}
	if err := b.fits("new", name, new); err != nil {
		return nil, err
	}
	if c == nil {
		c = &Cache{}
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00", name, len(old))
	h.Write(old)
	h.Write(new)
	var key [sha256.Size]byte
	h.Sum(key[:0])

	c.mu.Lock()
	if v, ok := c.m[key]; ok {
		c.mu.Unlock()
		return v.changes, v.err
	}
	f := c.flights[key]
	if f == nil {
		f = &flight{done: make(chan struct{})}
		c.initLocked()
		c.flights[key] = f
		go c.run(key, f, name, old, new)
	}
	f.waiters++
	c.mu.Unlock()

	timer := time.NewTimer(b.Time)
	defer timer.Stop()
	select {
	case <-f.done:
		return f.v.changes, f.v.err
	case <-ctx.Done():
		c.leave(f)
		return nil, &errCut{fmt.Sprintf("the comparison of %s was cancelled: %v", name, context.Cause(ctx))}
	case <-timer.C:
		c.leave(f)
		return nil, &errCut{fmt.Sprintf("comparing %s takes longer than its budget of %v", name, b.Time)}
	}
}

func (c *Cache) init() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.initLocked()
}

func (c *Cache) initLocked() {
	if c.flights == nil {
		c.flights, c.turn = map[[sha256.Size]byte]*flight{}, make(chan struct{}, 1)
	}
}

// pending is a flight not ended, or nil; waiting the callers waiting.
func (c *Cache) pending() *flight {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, f := range c.flights {
		return f
	}
	return nil
}

func (c *Cache) waiting() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, f := range c.flights {
		n += f.waiters
	}
	return n
}

func (c *Cache) leave(f *flight) {
	c.mu.Lock()
	f.waiters--
	c.mu.Unlock()
}

// run makes the flight's comparison when its turn comes, unless nobody
// waits for it any more, and keeps the result.
func (c *Cache) run(key [sha256.Size]byte, f *flight, name string, old, new []byte) {
	c.turn <- struct{}{}
	defer func() { <-c.turn }()
	c.mu.Lock()
	abandoned := f.waiters == 0
	if abandoned {
		delete(c.flights, key)
	} else {
		c.runs++
	}
	c.mu.Unlock()
	if abandoned {
		close(f.done) // nobody waits: superseded before its turn
		return
	}
	v := compared{}
	v.changes, v.err = Compare(name, old, new)
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxCached {
		c.m = map[[sha256.Size]byte]compared{}
	}
	c.m[key] = v
	delete(c.flights, key)
	f.v = v
	c.mu.Unlock()
	close(f.done)
}
