package contract

import (
	"context"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/contract/contracttest"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// peakHeap runs fn and reports the most heap it held, sampled every
// millisecond, and what it allocated.
func peakHeap(fn func()) (peak, alloc uint64) {
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc)
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	fn()
	close(stop)
	<-done
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	return peak - min(peak, before.HeapAlloc), after.TotalAlloc - before.TotalAlloc
}

// TestHostileDescriptionIsBounded reproduces issue 44's hostile
// description — 24 schemas 4,900 levels deep, each changed at the leaf,
// 4.9 MB of one-line JSON, which took 85–118 s and 1.1 GB — and a wide
// one past the node limit (2,000 endpoints): each is cut short before
// oasdiff sees it, the axis partial and Hold, within a fraction of a
// second and a few times the text's size in memory.
func TestHostileDescriptionIsBounded(t *testing.T) {
	deepBefore, deepAfter := contracttest.Hostile(24, 4900)
	nestedBefore, nestedAfter := contracttest.Hostile(24, 600)
	wide := contracttest.Wide(2000)
	for _, tc := range []struct {
		name, path, before, after, why string
	}{
		{"deep", "api/openapi.json", deepBefore, deepAfter, "to compare within the budget"},
		{"deep, few nodes", "api/openapi.json", nestedBefore, nestedAfter, "nested too deeply to compare within the budget"},
		{"wide", "api/openapi.yaml", wide.YAML(), wide.RemoveFirst().YAML(), "too large to compare within the budget"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := contracttest.NewRepo(t, map[string][2]string{tc.path: {tc.before, tc.after}})
			an := anchor.CheckDocument(exchange.Parse([]byte(repo.Review)), nil)
			tree, err := worktree.Open(repo.Root)
			if err != nil {
				t.Fatal(err)
			}
			var res *Result
			start := time.Now()
			peak, alloc := peakHeap(func() {
				res = Evaluate(context.Background(), an, Options{Tree: tree, Cache: &Cache{}})
			})
			took := time.Since(start)
			t.Logf("%s: %d bytes; %v, peak heap +%d MB, allocated %d MB; %s", tc.name, len(tc.before), took, peak>>20, alloc>>20, res.Summary())
			if res.Status != Partial || res.Verdict != Hold || len(res.Files) != 1 || !res.Files[0].Cut || !strings.Contains(res.Files[0].Reason, tc.why) {
				t.Fatalf("got %s (%+v), want partial, Hold, cut: %q", res.Summary(), res.Files, tc.why)
			}
			// Generous bounds for a loaded machine: the measured figures
			// are in the log and the report.
			if took > 10*time.Second || alloc > 40*uint64(len(tc.before)) {
				t.Errorf("took %v and allocated %d MB for %d bytes: the bound does not hold", took, alloc>>20, len(tc.before))
			}
		})
	}
}

// TestDescriptionWithinTheBudget: a description just within the limits
// is compared, and what it costs is the budget's figure.
func TestDescriptionWithinTheBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("a measurement: about 10 s")
	}
	deepOld, deepNew := hostileJust(8)
	wideOld, wideNew := wideJust()
	for _, tc := range []struct {
		name          string
		before, after string
	}{
		{"deep", deepOld, deepNew},
		{"wide", wideOld, wideNew},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := Budget{}.orDefault()
			so, sn := measure([]byte(tc.before)), measure([]byte(tc.after))
			if b.fits("old", "x", []byte(tc.before)) != nil || b.fits("new", "x", []byte(tc.after)) != nil {
				t.Fatalf("shapes %+v %+v exceed the budget %+v", so, sn, b)
			}
			var changes []Change
			var err error
			start := time.Now()
			peak, alloc := peakHeap(func() { changes, err = Compare("openapi.yaml", []byte(tc.before), []byte(tc.after)) })
			t.Logf("%s: %d bytes, shape %+v: %v, peak heap +%d MB, allocated %d MB, %d changes", tc.name, len(tc.before), so, time.Since(start), peak>>20, alloc>>20, len(changes))
			if err != nil || len(changes) == 0 {
				t.Errorf("got %d changes, %v", len(changes), err)
			}
		})
	}
}

// hostileJust is the hostile description of n schemas as deep as the
// work limit lets it be.
func hostileJust(n int) (string, string) {
	d := 10
	for {
		a, _ := contracttest.Hostile(n, d+10)
		if measure([]byte(a)).work > DefaultWork {
			return contracttest.Hostile(n, d)
		}
		d += 10
	}
}

// wideJust is the wide description as large as the node limit lets it be.
func wideJust() (string, string) {
	per := measure([]byte(contracttest.Wide(100).YAML())).nodes / 100
	w := contracttest.Wide(int(DefaultNodes/per) - 2)
	return w.YAML(), w.RemoveFirst().YAML()
}

// TestCompareTimeBudget: past its time the axis stops waiting (partial),
// the comparison goes on and is kept, and the next caller gets it.
func TestCompareTimeBudget(t *testing.T) {
	v := contracttest.Orders("3.0.3")
	old, new := []byte(v.YAML()), []byte(v.RemoveDelete().YAML())
	c := &Cache{}
	c.init()
	c.turn <- struct{}{} // another comparison runs: this one waits its turn
	_, err := c.compare(context.Background(), "openapi.yaml", old, new, Budget{Time: time.Millisecond}.orDefault())
	if !IsCut(err) || !strings.Contains(err.Error(), "takes longer than its budget of 1ms") {
		t.Fatalf("got %v, want cut by the time budget", err)
	}
	<-c.turn
	// The flight was abandoned: it never runs; a new one does, once.
	f := c.pending()
	if f == nil {
		t.Fatal("no flight")
	}
	<-f.done
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if cs, err := c.compare(context.Background(), "openapi.yaml", old, new, Budget{}.orDefault()); err != nil || len(cs) == 0 {
				t.Errorf("got %v, %v", cs, err)
			}
		}()
	}
	wg.Wait()
	if runs, pending := c.Stats(); runs != 1 || pending != 0 {
		t.Errorf("runs %d, pending %d: want one comparison for four callers", runs, pending)
	}
}

// TestCompareCancelled: a caller whose context ends (a newer version,
// the exit) stops waiting at once; a comparison nobody waits for by its
// turn never starts.
func TestCompareCancelled(t *testing.T) {
	v := contracttest.Orders("3.0.3")
	c := &Cache{}
	c.init()
	c.turn <- struct{}{}
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan error)
	go func() {
		_, err := c.compare(ctx, "openapi.yaml", []byte(v.YAML()), []byte(v.RequireLimit().YAML()), Budget{}.orDefault())
		done <- err
	}()
	for c.waiting() == 0 {
		runtime.Gosched()
	}
	cancel(context.Canceled)
	if err := <-done; !IsCut(err) || !strings.Contains(err.Error(), "was cancelled") {
		t.Fatalf("got %v, want cancelled", err)
	}
	f := c.pending()
	<-c.turn
	<-f.done
	if runs, pending := c.Stats(); runs != 0 || pending != 0 {
		t.Errorf("runs %d, pending %d: the superseded comparison ran", runs, pending)
	}
}
