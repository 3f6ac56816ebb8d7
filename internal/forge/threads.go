package forge

import (
	"fmt"
	"strings"
)

// thread links posts into threads by the forge's reply field (GitHub's
// in_reply_to_id, Gerrit's in_reply_to): for each post, the index of its
// thread's first post. Each post is visited once along its chain, so a
// chain of n replies costs O(n), not O(n²).
//
// A reply whose parent is not listed starts a thread of its own
// (orphans). A cycle (1 replies to 2, 2 to 1) has no first post: it is
// broken at its earliest post, which starts the thread, and reported in
// cycles; no post of it is dropped.
type threadLinks struct {
	root    []int   // root[i]: the first post of i's thread
	orphans []int   // posts whose parent is not listed
	cycles  [][]int // each cycle broken, its earliest post first
}

// linkThreads links n posts. key is a post's id, parent its reply field
// (ok false for a first post), earlier orders two posts by time.
func linkThreads(n int, key func(int) string, parent func(int) (string, bool), earlier func(i, j int) bool) threadLinks {
	index := make(map[string]int, n)
	for i := range n {
		if _, dup := index[key(i)]; !dup {
			index[key(i)] = i
		}
	}
	const (
		unseen = iota
		onPath
		done
	)
	state := make([]uint8, n)
	pos := make([]int, n) // a post's place on the current path
	l := threadLinks{root: make([]int, n)}
	var path []int
	for i := range n {
		if state[i] == done {
			continue
		}
		path = path[:0]
		j, r := i, -1
		for r < 0 {
			switch state[j] {
			case done:
				r = l.root[j]
				continue
			case onPath:
				cycle := append([]int(nil), path[pos[j]:]...)
				first := 0
				for k := range cycle {
					if earlier(cycle[k], cycle[first]) {
						first = k
					}
				}
				cycle[0], cycle[first] = cycle[first], cycle[0]
				l.cycles = append(l.cycles, cycle)
				r = cycle[0]
				continue
			}
			state[j], pos[j] = onPath, len(path)
			path = append(path, j)
			p, ok := parent(j)
			if !ok {
				r = j
				continue
			}
			pj, listed := index[p]
			switch {
			case !listed:
				l.orphans = append(l.orphans, j)
				r = j
			case pj == j: // a post replying to itself starts its thread
				r = j
			default:
				j = pj
			}
		}
		for _, q := range path {
			l.root[q], state[q] = r, done
		}
	}
	return l
}

// cycleNote says how a cycle was broken: names are the posts as the
// forge numbers them, the first the one that starts the thread.
func cycleNote(field string, names []string) string {
	list := strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	return fmt.Sprintf("%s reply to each other (%s goes round): imported as one thread that %s, the earliest, starts; the others are its replies",
		list, field, names[0])
}
