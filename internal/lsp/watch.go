package lsp

import (
	"os"
	"time"

	"go.lsp.dev/protocol"
)

// One way of watching files. What the server watches is the union of
// the files the open reviews' patches name (watchFiles), the reviews in
// scope with their directories and the files they name (watchScope),
// and the bodies opened as files (bodyfile.go). A client that registers
// file watchers dynamically is asked to watch the first two
// (registerWatchers), and tells of their changes by
// workspace/didChangeWatchedFiles; for any other client (Neovim on
// Linux registers none) one poller looks at them itself. The body files,
// in a directory of the server's outside the workspace (where clients do
// not reliably watch), are always looked at by the poller. Either way a
// change enters the session through modifyFiles (modify.go), as a
// fileOnDisk modification, the scope's reviews too (pollScope), but for
// the body files, which the poller writes back into their reviews.

// watching reports whether the client watches files for the server.
func (s *Server) watching() bool {
	w := s.wt
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.watch
}

// registerWatchers asks the client to watch patterns under id, in place
// of what it registered under id before (had).
func (s *Server) registerWatchers(id string, had bool, patterns []string) error {
	watchers := make([]protocol.FileSystemWatcher, len(patterns))
	for i, p := range patterns {
		watchers[i] = protocol.FileSystemWatcher{GlobPattern: p, Kind: protocol.WatchKindChange + protocol.WatchKindCreate + protocol.WatchKindDelete}
	}
	if had {
		_ = s.withdrawWatchers(id)
	}
	_, err := s.conn.Call(s.bg, "client/registerCapability", &protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID: id, Method: "workspace/didChangeWatchedFiles",
		RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: watchers},
	}}}, nil)
	return err
}

// withdrawWatchers asks the client to stop watching what it registered
// under id.
func (s *Server) withdrawWatchers(id string) error {
	_, err := s.conn.Call(s.bg, "client/unregisterCapability", &protocol.UnregistrationParams{Unregisterations: []protocol.Unregistration{{ID: id, Method: "workspace/didChangeWatchedFiles"}}}, nil)
	return err
}

// startPolling starts the poller, once: at initialize for a client that
// watches no files, or when the first body file is written.
func (s *Server) startPolling() {
	if s.polling.Swap(true) {
		return
	}
	if !s.spawn(s.poll) {
		s.polling.Store(false)
	}
}

// poll looks at what is watched every Options.Poll until Serve returns:
// the body files always, the patches' files and the reviews in scope
// when the client does not watch them (and Options.Poll is not
// negative). Then it removes the body files.
func (s *Server) poll() {
	every := s.opts.Poll
	if every <= 0 {
		every = DefaultPoll
	}
	files := s.opts.Poll >= 0 && !s.watching()
	patch := &patchPoll{seen: map[pollKey]fileStamp{}}
	scope := newScopePoll()
	tick := time.NewTicker(every)
	defer tick.Stop()
	defer s.bodies.removeDir()
	for {
		select {
		case <-s.bg.Done():
			return
		case <-tick.C:
		}
		if files {
			if changed := s.pollRound(patch); len(changed) > 0 {
				_ = s.modifyFiles(modification{action: fileOnDisk, paths: changed})
			}
			if patch.part%pollSlices == 0 { // a cycle ended
				s.pollScope(scope)
			}
		}
		for _, f := range s.savedBodies() {
			s.writeBack(f)
		}
	}
}

// removeDir removes the body files' directory, once the session ends.
func (bf *bodyFiles) removeDir() {
	bf.mu.Lock()
	defer bf.mu.Unlock()
	if bf.root != nil {
		_ = bf.root.Close()
		_ = os.RemoveAll(bf.dir)
	}
}
