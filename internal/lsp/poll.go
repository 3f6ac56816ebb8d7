package lsp

import (
	"time"

	"go.lsp.dev/protocol"
)

// Noticing a source file saved outside the review when the client does
// not watch files. The server asks a client that registers file watchers
// dynamically to watch the reviewed files (watchFiles); Neovim on Linux,
// 0.12 too, registers none, so source-changed would wait for the next
// edit of the review. For such a client the server looks itself: every
// Options.Poll it reads the size and modification time of the files the
// open reviews' patches name (through the tree's root, never a path
// resolved again by name), at most maxPolled of them, and publishes again
// the reviews whose files changed.

// DefaultPoll is how often the server looks at the reviewed files of a
// client that does not watch them: well within the two seconds a person
// waits after saving a source file.
const DefaultPoll = 500 * time.Millisecond

// maxPolled bounds the files looked at per round: a review naming more
// is polled for its first maxPolled files.
const maxPolled = 2000

// fileStamp is what says a file changed.
type fileStamp struct {
	size int64
	mod  time.Time
	ok   bool
}

// startPolling starts the poller when the client watches no files.
func (s *Server) startPolling() {
	every := s.opts.Poll
	if every == 0 {
		every = DefaultPoll
	}
	if every < 0 {
		return
	}
	s.spawn(func() { s.poll(every) })
}

// poll looks at the polled files every interval until Serve returns.
func (s *Server) poll(every time.Duration) {
	seen := map[string]fileStamp{}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-s.bg.Done():
			return
		case <-tick.C:
		}
		for _, u := range s.pollRound(seen) {
			s.mu.Lock()
			f := s.files[u]
			s.mu.Unlock()
			if f != nil {
				s.schedule(f, 0, nil)
			}
		}
	}
}

// pollRound stats the polled files and returns the reviews of those that
// changed since the last round (a file seen for the first time is not a
// change).
func (s *Server) pollRound(seen map[string]fileStamp) []protocol.DocumentURI {
	w := s.wt
	w.mu.Lock()
	polled := make(map[protocol.DocumentURI][]string, len(w.polled))
	for u, names := range w.polled {
		polled[u] = names
	}
	w.mu.Unlock()
	var changed []protocol.DocumentURI
	n := 0
	for u, names := range polled {
		t := s.treeFor(u)
		if t == nil {
			continue
		}
		hit := false
		for _, name := range names {
			if n++; n > maxPolled {
				break
			}
			var now fileStamp
			if fi, err := t.Files().Stat(name); err == nil {
				now = fileStamp{size: fi.Size(), mod: fi.ModTime(), ok: true}
			}
			key := t.Root() + "\x00" + name
			before, had := seen[key]
			seen[key] = now
			if had && before != now {
				hit = true
			}
		}
		if hit {
			changed = append(changed, u)
		}
	}
	return changed
}
