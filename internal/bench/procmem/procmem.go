// Package procmem reads a process's peak resident memory (VmHWM), the
// figure a person sees and the memory benchmarks report: Go's heap
// statistics have no peak of their own, and they leave out what is not
// heap (the binary's pages, the runtime).
package procmem

import (
	"os"
	"strconv"
	"strings"
)

// PeakMB is the peak resident memory in MB of process pid ("self" for
// this one); false where /proc has no such figure (not Linux, or the
// process is gone).
func PeakMB(pid string) (float64, bool) {
	data, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return 0, false
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			if kb, err := strconv.Atoi(f[1]); err == nil {
				return float64(kb) / 1024, true
			}
		}
	}
	return 0, false
}
