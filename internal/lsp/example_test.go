package lsp

import (
	"os"
	"testing"
)

// exampleReview is the spec's example, shipped in examples/.
var exampleReview = func() string {
	b, err := os.ReadFile("../../examples/auth.review.json")
	if err != nil {
		panic(err)
	}
	return string(b)
}()

func TestMain(m *testing.M) { os.Exit(m.Run()) }
