// Package testrace is for tests only: an attacker's race on the file
// system, to show that the project's file access never leaves a root.
package testrace

import (
	"os"
	"runtime"
	"testing"
)

// SwapDir swaps the directory dir for a symbolic link to outside and back,
// again and again in a goroutine, until the returned function is called;
// that function puts dir back as it was and returns how many times it was
// a link. A path checked while dir is a directory and opened while it is
// the link leads outside.
func SwapDir(t testing.TB, dir, outside string) (stop func() int) {
	t.Helper()
	real, link := dir+".real", dir+".link"
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	done, finished := make(chan struct{}), make(chan struct{})
	swaps := 0
	go func() {
		defer close(finished)
		for {
			select {
			case <-done:
				return
			default:
			}
			if os.Rename(dir, real) != nil {
				continue
			}
			if os.Rename(link, dir) == nil {
				swaps++
				runtime.Gosched()
				os.Rename(dir, link)
			}
			os.Rename(real, dir)
			runtime.Gosched() // a while a directory again
		}
	}()
	return func() int {
		close(done)
		<-finished
		os.Remove(link)
		if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
			t.Fatalf("%s was not put back: %v %v", dir, fi, err)
		}
		return swaps
	}
}
