package contract_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/contract/contracttest"
)

var update = flag.Bool("update", false, "rewrite the editors' contract fixtures")

// TestEditorFixtures keeps the editors' contract fixtures what a real git
// diff of the orders description makes: DELETE /orders/{id} removed and
// limit made required, in OpenAPI 3.0 YAML. The editor tests write
// contract.openapi.yaml as api/openapi.yaml of a repository holding
// contract.review.json (go test ./internal/contract -run EditorFixtures
// -update rewrites them).
func TestEditorFixtures(t *testing.T) {
	v := contracttest.Orders("3.0.3")
	after := v.RemoveDelete().RequireLimit().YAML()
	repo := contracttest.NewRepo(t, map[string][2]string{"api/openapi.yaml": {v.YAML(), after}})
	files := map[string]string{"contract.review.json": repo.Review, "contract.openapi.yaml": after}
	for _, dir := range []string{"../../editors/vim/test/fixtures", "../../editors/vscode/test/e2e/fixtures"} {
		for name, want := range files {
			p := filepath.Join(dir, name)
			if *update {
				if err := os.WriteFile(p, []byte(want), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			got, err := os.ReadFile(p)
			if err != nil || string(got) != want {
				t.Errorf("%s is not what the generator makes (err %v); run go test ./internal/contract -run EditorFixtures -update", p, err)
			}
		}
	}
}
