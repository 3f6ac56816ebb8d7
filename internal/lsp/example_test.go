package lsp

import "os"

// exampleReview is the spec's example, shipped in examples/.
var exampleReview = func() string {
	b, err := os.ReadFile("../../examples/auth.review.json")
	if err != nil {
		panic(err)
	}
	return string(b)
}()
