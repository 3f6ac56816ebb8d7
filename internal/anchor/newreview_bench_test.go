package anchor

import (
	"bytes"
	"fmt"
	"testing"
)

// hostileDiffs are inputs of size n that `new` and `rebase` must refuse or
// take in time and memory linear in n: NUL bytes (one line, escaped six
// times over in JSON), a valid diff of many small files.
func hostileDiffs(n int) map[string][]byte {
	var valid bytes.Buffer
	for i := 0; valid.Len() < n; i++ {
		fmt.Fprintf(&valid, "diff --git a/pkg/f%d.go b/pkg/f%d.go\nindex 1111111..2222222 100644\n--- a/pkg/f%d.go\n+++ b/pkg/f%d.go\n@@ -1,4 +1,5 @@\n func f() {\n-\treturn x\n+\ty := x + 1\n+\treturn y\n }\n \n", i, i, i, i)
	}
	hunk := []byte("diff --git a/b.bin b/b.bin\n--- a/b.bin\n+++ b/b.bin\n@@ -0,0 +1 @@\n+")
	return map[string][]byte{"nul": make([]byte, n), "valid": valid.Bytes(), "nul-in-hunk": append(hunk, make([]byte, n)...)}
}

func BenchmarkNewReviewHostile(b *testing.B) {
	for _, mb := range []int{4, 8} {
		for name, data := range hostileDiffs(mb << 20) {
			b.Run(fmt.Sprintf("%s-%dMB", name, mb), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					NewReview(data, "t", "")
				}
			})
		}
	}
}
