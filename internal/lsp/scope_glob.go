package lsp

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// The review globs (the setting reviews) are matched one path segment at
// a time, as a set of positions in the pattern: "**" is any number of
// segments, any other segment a path.Match pattern. A segment costs at
// most one path.Match per pattern segment, so a path costs its depth
// times the glob's length, whatever the glob — a backtracking matcher
// takes time exponential in the "**"s (a 14-segment "**/**/…/x" over a
// 30-deep tree kept a core busy without end). The walk (scope.go) keeps
// each directory's set and extends it by one segment per entry, and
// skips a directory no glob can match anything under.

const (
	// maxGlobs bounds the globs of the setting reviews.
	maxGlobs = 16
	// maxGlobSegments bounds a glob's segments ("**" included).
	maxGlobSegments = 32
)

// reviewGlob is a checked glob, split in segments, consecutive "**"
// made one.
type reviewGlob struct {
	text string
	segs []string
}

// globState is a set of positions in a glob's segments: bit i is "the
// next segment is matched against segs[i]"; bit len(segs) is "matched".
type globState uint64

// compileGlob checks g: relative, no "..", no empty segment, each
// segment a valid pattern, at most maxGlobSegments segments.
func compileGlob(g string) (reviewGlob, error) {
	switch {
	case g == "":
		return reviewGlob{}, errors.New("empty")
	case strings.HasPrefix(g, "/") || filepath.IsAbs(g) || filepath.VolumeName(g) != "":
		return reviewGlob{}, errors.New("a glob is relative to the source root, not absolute")
	}
	var segs []string
	for _, seg := range strings.Split(g, "/") {
		switch {
		case seg == "" || seg == ".":
			return reviewGlob{}, fmt.Errorf("segment %q: a glob names paths under the source root as they are", seg)
		case seg == "..":
			return reviewGlob{}, errors.New(`".." leaves the source root`)
		case seg == "**":
			if len(segs) > 0 && segs[len(segs)-1] == "**" {
				continue // "**/**" is "**"
			}
		default:
			if _, err := path.Match(seg, ""); err != nil {
				return reviewGlob{}, fmt.Errorf("segment %q: %v", seg, err)
			}
		}
		segs = append(segs, seg)
	}
	if len(segs) > maxGlobSegments {
		return reviewGlob{}, fmt.Errorf("%d segments, at most %d", len(segs), maxGlobSegments)
	}
	return reviewGlob{text: g, segs: segs}, nil
}

// start is the state before any segment.
func (g reviewGlob) start() globState { return g.closure(1) }

// closure adds to st the positions a "**" may skip to.
func (g reviewGlob) closure(st globState) globState {
	for i, seg := range g.segs {
		if st&(1<<i) != 0 && seg == "**" {
			st |= 1 << (i + 1)
		}
	}
	return st
}

// step is the state after the segment name; work counts the
// path.Match calls made.
func (g reviewGlob) step(st globState, name string, work *int) globState {
	var next globState
	for i, seg := range g.segs {
		if st&(1<<i) == 0 {
			continue
		}
		if seg == "**" {
			next |= 1 << i
			continue
		}
		*work++
		if ok, _ := path.Match(seg, name); ok {
			next |= 1 << (i + 1)
		}
	}
	return g.closure(next)
}

// matched reports whether st is a full match.
func (g reviewGlob) matched(st globState) bool { return st&(1<<len(g.segs)) != 0 }

// alive reports whether a path going on from st may still match.
func (g reviewGlob) alive(st globState) bool { return st&^(1<<len(g.segs)) != 0 }

// matchPath reports whether the slash path p matches g.
func (g reviewGlob) matchPath(p string, work *int) bool {
	st := g.start()
	for seg := range strings.SplitSeq(p, "/") {
		if st = g.step(st, seg, work); st == 0 {
			return false
		}
	}
	return g.matched(st)
}
