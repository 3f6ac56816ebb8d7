package lsp

import (
	"runtime"
	"runtime/metrics"
	"slices"
	"time"
)

// The server collects garbage where it costs least. Each keystroke on a
// large review leaves megabytes of garbage (the previous version's text,
// its comments' nodes), and a collection that falls due during a
// keystroke makes it wait: the runtime has the allocation of the next
// version's text help mark the heap, and on two cores that took a
// keystroke from 4 ms to 50–100 ms about one in five. Such a collection
// also marks two versions, the one being replaced (live until the new
// one's analysis is published) and the new one, and the runtime sets its
// next goal at twice what it marked: on the 8 MB review, edits sent back
// to back peaked at three to four times the live heap. So the server
// collects
//   - in a pause: after a publish that no edit follows within
//     idleCollect, which costs nobody;
//   - before the copy: when an edit of a large document comes without
//     such a pause, and the runtime's collection would fall due during
//     it, the edit collects first, before it allocates the new text,
//     while only one version is live. Back to back, that is nearly
//     every edit, where the runtime collected every second or third;
//     but each collection marks one version and no allocation helps
//     mark, so the keystrokes got no slower, and the peak came down to
//     a typist's. A typist's edits mostly find the garbage collected in
//     the pause.
const (
	// idleCollect is how long after a publish no edit must come.
	idleCollect = 20 * time.Millisecond
	// minIdleGarbage is the garbage worth it: with less, the next
	// collection is far off, and cheap.
	minIdleGarbage = 8 << 20
	// minCopyText is the smallest document whose edits collect before
	// the copy: with a smaller one, the second version the runtime
	// would mark is too small to matter.
	minCopyText = 1 << 20
	// copyAllocs is what an edit allocates, as a multiple of the text:
	// the new text and the analysis's part, 13 MB for the 8 MB review,
	// rounded up. With 1, the first keystroke after a collection is not
	// due, and the runtime often starts its own in the middle of the
	// second: 84 MB back to back.
	copyAllocs = 2
	// triggerNum/64 is how far from the live heap to the goal the
	// runtime may start a collection, at the earliest (its pacer's
	// minimum trigger).
	triggerNum = 45
)

// gcCause says where the server collects (see above).
type gcCause uint8

const (
	inAPause gcCause = iota
	beforeCopy
)

// armIdleCollect schedules a collection for when no edit follows the
// publish just sent, decided at activity gen; each edit, open or close
// counts as activity.
func (s *Server) armIdleCollect(gen uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	if s.idle != nil {
		s.idle.Stop()
	}
	s.idle = time.AfterFunc(idleCollect, func() { s.collectIfIdle(gen) })
}

// collectIfIdle starts a collection when nothing happened since activity
// gen and there is enough garbage, and reports whether it did; the
// collection reads the heap again when its turn comes (collectInPause).
func (s *Server) collectIfIdle(gen uint64) bool {
	if !s.quiet(gen) || !s.worthCollecting(inAPause, 0) {
		return false
	}
	return s.spawn(func() { s.collectInPause(gen) })
}

// collectInPause collects, as collectIfIdle decided, unless an edit came
// since activity gen, and reports whether it did. The edit may have come
// between the decision and now: it has then made its copy, or is making
// it, and a collection would mark two versions of the text, the very
// thing the pause is for avoiding (on the 8 MB review, edits sent back
// to back found the next goal at 62 MB instead of 46 after one such
// collection, and peaked at 68 MB). An edit counts as activity from the
// moment it holds gcMu (collectBeforeCopy), so under gcMu the check
// is exact: the collection ends before the edit copies, or does not run.
func (s *Server) collectInPause(gen uint64) bool {
	s.gcMu.Lock()
	defer s.gcMu.Unlock()
	return s.quiet(gen) && s.collectIfWorth(inAPause, 0)
}

// quiet reports whether the server runs and nothing happened since
// activity gen.
func (s *Server) quiet(gen uint64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.closed && s.activity == gen
}

// collectBeforeCopy collects, before didChange builds the new text of a
// large document from its ranges, when the runtime's own collection
// would otherwise fall due during the edit (dueDuring). The edit waits
// for it (2–5 ms on the 8 MB review), but not under s.mu: the requests
// in flight need not. Every edit counts as activity from here, before
// its copy, and waits for a collection in a pause that runs.
func (s *Server) collectBeforeCopy(p *changeParams) {
	s.gcMu.Lock()
	defer s.gcMu.Unlock()
	s.mu.Lock()
	s.activity++
	var size int
	if f := s.files[p.TextDocument.URI]; f != nil {
		size = len(f.latest.text)
	}
	s.mu.Unlock()
	// Changes without a range send the whole text: there is no copy.
	ranged := slices.ContainsFunc(p.ContentChanges, func(ch contentChange) bool { return ch.Range != nil })
	if ranged && size >= minCopyText {
		s.collectIfWorth(beforeCopy, uint64(size))
	}
}

// collectIfWorth runs a whole collection if worthCollecting says so, and
// reports whether it did. s.gcMu must be held: one collection runs at a
// time, and each reads the heap once the one before has ended, so an
// edit that comes while a collection in a pause runs waits for the rest
// of it and then finds little garbage, where runtime.GC would wait for
// it and then run a second one.
func (s *Server) collectIfWorth(why gcCause, size uint64) bool {
	if !s.worthCollecting(why, size) {
		return false
	}
	runtime.GC()
	if s.opts.collected != nil {
		s.opts.collected(why)
	}
	return true
}

// worthCollecting reads the heap and tells whether a collection for why
// is worth it: the garbage is at least minIdleGarbage and a quarter of
// what is live, and, before the copy of a text of size bytes, the
// runtime would collect during the edit.
func (s *Server) worthCollecting(why gcCause, size uint64) bool {
	h := heapBytes()
	if s.opts.gcWorth != nil {
		return s.opts.gcWorth(why, h)
	}
	if why == beforeCopy && !dueDuring(h, copyAllocs*size) {
		return false
	}
	return enoughGarbage(h, minIdleGarbage)
}

// heapSizes is the heap live at the last collection, the heap's objects
// now, garbage included, and the heap the runtime's next collection aims
// to end at.
type heapSizes struct{ live, objects, goal uint64 }

func heapBytes() heapSizes {
	samples := []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/gc/heap/goal:bytes"},
	}
	metrics.Read(samples)
	var v [3]uint64
	for i, sample := range samples {
		if sample.Value.Kind() == metrics.KindUint64 {
			v[i] = sample.Value.Uint64()
		}
	}
	return heapSizes{live: v[0], objects: v[1], goal: v[2]}
}

// enoughGarbage reports whether the garbage is at least minGarbage and
// a quarter of what is live: on a small review, never.
func enoughGarbage(h heapSizes, minGarbage uint64) bool {
	if h.objects <= h.live {
		return false
	}
	garbage := h.objects - h.live
	return garbage >= minGarbage && garbage >= h.live/4
}

// dueDuring reports whether the runtime may start a collection before
// the heap grows by allocs more bytes: it starts one between 45/64 and
// 61/64 of the way from the heap live at the last collection to the goal,
// so the earliest counts.
func dueDuring(h heapSizes, allocs uint64) bool {
	if h.goal <= h.live {
		return true
	}
	return h.objects+allocs >= h.live+(h.goal-h.live)*triggerNum/64
}
