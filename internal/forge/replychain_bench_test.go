package forge

import (
	"fmt"
	"strconv"
	"testing"
)

// replyThread is a thread of n comments on one line: each reply points
// at the previous comment (chain) or, as GitHub's own replies do, at the
// first.
func replyThread(n int, chain bool) []GitHubThreadComment {
	line := 1
	out := make([]GitHubThreadComment, n)
	for i := range out {
		c := GitHubThreadComment{
			ID: int64(i + 1), Path: "a.txt", Body: "reply " + strconv.Itoa(i),
			User: &GitHubUser{Login: "u" + strconv.Itoa(i%7)}, Line: &line, OriginalLine: &line,
			CreatedAt: fmt.Sprintf("2026-12-01T%02d:%02d:%02dZ", i/3600%24, i/60%60, i%60),
		}
		if i > 0 {
			parent := int64(1)
			if chain {
				parent = int64(i)
			}
			c.InReplyToID = &parent
		}
		out[i] = c
	}
	return out
}

// BenchmarkImportReplyChain imports threads of 10k and 20k comments each
// replying to the previous one (chain), beside the same threads with
// every reply pointing at the first comment (star, GitHub's shape: the
// baseline): the time per comment must not grow with the chain's length,
// and a chain must cost what a star does.
func BenchmarkImportReplyChain(b *testing.B) {
	patch := []string{"diff --git a/a.txt b/a.txt", "--- a/a.txt", "+++ b/a.txt", "@@ -1 +1 @@", "-a", "+b"}
	for _, shape := range []string{"star", "chain"} {
		for _, n := range []int{10000, 20000} {
			comments := replyThread(n, shape == "chain")
			b.Run(shape+"/"+strconv.Itoa(n), func(b *testing.B) {
				for b.Loop() {
					im, err := ImportGitHub(comments, nil, patch, ImportOptions{})
					if err != nil {
						b.Fatal(err)
					}
					if im.Comments != 1 {
						b.Fatalf("got %d comments, want the one thread", im.Comments)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/comment")
			})
		}
	}
}
