package worktree

import (
	"strconv"
	"testing"
)

// TestCacheBoundedByText: past maxCachedText, the files least recently
// asked for go, the one just read and those asked for since stay.
func TestCacheBoundedByText(t *testing.T) {
	c := newCache()
	file := func(n int) *File {
		return &File{Path: strconv.Itoa(n), Text: string(make([]byte, MaxFileSize)), Size: MaxFileSize, stamp: stamp{size: MaxFileSize}}
	}
	has := func(name string) bool {
		f, _ := c.get(name, stamp{size: MaxFileSize})
		return f != nil
	}
	for n := range 4 {
		c.put(strconv.Itoa(n), file(n), false)
	}
	if !has("0") {
		t.Fatal("file 0 was dropped within the bound")
	}
	c.put("4", file(4), false) // over the bound: 1, the least recently asked for, goes
	for name, want := range map[string]bool{"0": true, "1": false, "2": true, "3": true, "4": true} {
		if got := has(name); got != want {
			t.Errorf("file %s kept: got %v, want %v", name, got, want)
		}
	}
	if c.size > maxCachedText {
		t.Errorf("got %d bytes of text kept, want at most %d", c.size, maxCachedText)
	}
	c.put("4", &File{Path: "4", Text: "small", Size: 5}, false)
	if want := 3*MaxFileSize + 5; c.size != want {
		t.Errorf("after a file was read again smaller: got %d bytes kept, want %d", c.size, want)
	}
}

// TestMemoGenerations: a memo holds at most two generations, and what is
// asked for is carried into the newer one.
func TestMemoGenerations(t *testing.T) {
	var m memo[int, int]
	for k := range 3 * memoGeneration {
		m.store(k, k)
		if k%memoGeneration == 0 {
			if v, ok := m.load(0); !ok || v != 0 { // asked for once per generation: stays
				t.Fatalf("after %d stores: key 0 lost", k)
			}
		}
	}
	if n := len(m.cur) + len(m.old); n > 2*memoGeneration {
		t.Errorf("got %d entries, want at most %d", n, 2*memoGeneration)
	}
	if _, ok := m.load(1); ok {
		t.Errorf("key 1, never asked for, outlived two generations")
	}
	if v, ok := m.load(3*memoGeneration - 1); !ok || v != 3*memoGeneration-1 {
		t.Errorf("the last key stored: got %d, %v", v, ok)
	}
}
