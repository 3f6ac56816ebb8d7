package lsp

import (
	"bytes"
	"testing"
)

func BenchmarkScratchEditFirstComment(b *testing.B) {
	_, edit := rawOpenAt(b, "first", func(src []byte) int {
		return bytes.Index(src, []byte(`"body": "`)) + len(`"body": "`)
	})
	for b.Loop() {
		edit()
	}
}
