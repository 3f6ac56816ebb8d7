package lsp

import (
	"runtime"
	"runtime/metrics"
	"time"
)

// The server collects garbage in the pauses of the typing. Each keystroke
// on a large review leaves megabytes of garbage (the previous version's
// text, its comments' nodes), and a collection that falls due during a
// keystroke makes it wait: the runtime has the allocation of the next
// version's text help mark the heap, and on two cores that took a
// keystroke from 4 ms to 50–100 ms about one in five. A collection in a
// pause costs nobody.
const (
	// idleCollect is how long after a publish no edit must come.
	idleCollect = 20 * time.Millisecond
	// minIdleGarbage is the garbage worth it: with less, the next
	// collection is far off, and cheap.
	minIdleGarbage = 8 << 20
)

// armIdleCollect schedules a collection for when no edit follows the
// publish just sent; each edit, open or close counts as activity.
func (s *Server) armIdleCollect() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	if s.idle != nil {
		s.idle.Stop()
	}
	gen := s.activity
	s.idle = time.AfterFunc(idleCollect, func() { s.collectIfIdle(gen) })
}

// collectIfIdle starts a collection when nothing happened since activity
// gen and there is enough garbage, and reports whether it did.
func (s *Server) collectIfIdle(gen uint64) bool {
	s.mu.Lock()
	quiet := !s.closed && s.activity == gen
	s.mu.Unlock()
	worth := func(h heapSizes) bool { return worthCollecting(h, minIdleGarbage) }
	if s.opts.idleWorth != nil {
		worth = s.opts.idleWorth
	}
	if !quiet || !worth(heapBytes()) {
		return false
	}
	return s.spawn(func() {
		runtime.GC()
		if s.opts.collected != nil {
			s.opts.collected()
		}
	})
}

// heapSizes is the heap live at the last collection and the heap's
// objects now, garbage included.
type heapSizes struct{ live, objects uint64 }

func heapBytes() heapSizes {
	samples := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(samples)
	var h heapSizes
	if samples[0].Value.Kind() == metrics.KindUint64 {
		h.live = samples[0].Value.Uint64()
	}
	if samples[1].Value.Kind() == metrics.KindUint64 {
		h.objects = samples[1].Value.Uint64()
	}
	return h
}

// worthCollecting reports whether the garbage is at least minGarbage and
// a quarter of what is live: on a small review, never.
func worthCollecting(h heapSizes, minGarbage uint64) bool {
	if h.objects <= h.live {
		return false
	}
	garbage := h.objects - h.live
	return garbage >= minGarbage && garbage >= h.live/4
}
