package contract_test

import (
	"context"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/contract"
	"github.com/leanreview/lreview-lsp/internal/contract/contracttest"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// BenchmarkContractAxis measures the axis beside `check`'s work on the
// same document (parse, check, anchor), in the same run:
//
//   - on the generated 8 MB review, which changes no description: the
//     axis must cost nothing next to the check;
//   - on a review of the orders description in its repository: the
//     first comparison (cold: rebuild, oasdiff), and the later ones of
//     the same texts (warm: rebuild and the cache's hash).
func BenchmarkContractAxis(b *testing.B) {
	big := reviewgen.Generate(reviewgen.Default())
	b.Run("check-8MB", func(b *testing.B) {
		b.SetBytes(int64(len(big)))
		for b.Loop() {
			anchor.CheckDocument(exchange.Parse(big), nil)
		}
	})
	an := anchor.CheckDocument(exchange.Parse(big), nil)
	b.Run("axis-8MB-no-spec", func(b *testing.B) {
		var c contract.Cache
		for b.Loop() {
			if r := contract.Evaluate(context.Background(), an, contract.Options{Cache: &c}); r.Applies() {
				b.Fatal("the generated review changes no description")
			}
		}
	})

	v := contracttest.Orders("3.0.3")
	repo := contracttest.NewRepo(b, map[string][2]string{"api/openapi.yaml": {v.YAML(), v.RemoveDelete().RequireLimit().AddEndpoint().YAML()}})
	src := []byte(repo.Review)
	tree, err := worktree.Open(repo.Root)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("check-spec-review", func(b *testing.B) {
		for b.Loop() {
			anchor.CheckDocument(exchange.Parse(src), nil)
		}
	})
	spec := anchor.CheckDocument(exchange.Parse(src), nil)
	b.Run("axis-spec-cold", func(b *testing.B) {
		for b.Loop() {
			if r := contract.Evaluate(context.Background(), spec, contract.Options{Tree: tree.Pinned(), Cache: &contract.Cache{}}); r.Status != contract.Fail {
				b.Fatal(r.Summary())
			}
		}
	})
	b.Run("axis-spec-warm", func(b *testing.B) {
		var c contract.Cache
		for b.Loop() {
			if r := contract.Evaluate(context.Background(), spec, contract.Options{Tree: tree.Pinned(), Cache: &c}); r.Status != contract.Fail {
				b.Fatal(r.Summary())
			}
		}
	})
}
