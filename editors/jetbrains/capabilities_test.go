package jetbrains

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/lsp"
)

// jsonKeys lists the keys of a JSON object tree, nested ones as "a.b".
func jsonKeys(prefix string, v any) []string {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	var out []string
	for k, sub := range m {
		out = append(out, prefix+k)
		out = append(out, jsonKeys(prefix+k+".", sub)...)
	}
	slices.Sort(out)
	return out
}

// TestOptionsMatchTheServer checks that the template's initialization
// options and workspace settings have exactly the shape the server reads:
// a key the server does not know would be silently ignored.
func TestOptionsMatchTheServer(t *testing.T) {
	wantBytes, err := json.Marshal(lsp.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	var want any
	json.Unmarshal(wantBytes, &want)

	var init, settings any
	readJSON(t, "lsp4ij-template/initializationOptions.json", &init)
	readJSON(t, "lsp4ij-template/settings.json", &settings)
	if got, w := jsonKeys("", init), jsonKeys("", want); !reflect.DeepEqual(got, w) {
		t.Errorf("initializationOptions.json keys: got %v, want %v", got, w)
	}
	if got, w := jsonKeys("", settings), jsonKeys("lreview.", want); !reflect.DeepEqual(got[1:], w) || got[0] != "lreview" {
		t.Errorf("settings.json keys: got %v, want lreview and %v", got, w)
	}
}

// TestServerOffersWhatTheReadmeDescribes checks the capabilities the
// JetBrains walkthrough promises against the server's real ones.
func TestServerOffersWhatTheReadmeDescribes(t *testing.T) {
	data, err := json.Marshal(lsp.ServerCapabilities(exchange.UTF16, true))
	if err != nil {
		t.Fatal(err)
	}
	var caps map[string]any
	if err := json.Unmarshal(data, &caps); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{
		"hoverProvider", "definitionProvider", "referencesProvider", "completionProvider",
		"codeActionProvider", "documentSymbolProvider", "foldingRangeProvider", "codeLensProvider",
		"documentFormattingProvider", "semanticTokensProvider", "inlayHintProvider",
	} {
		if caps[name] == nil || caps[name] == false {
			t.Errorf("the server does not offer %s, which the editor integrations rely on", name)
		}
	}
	legend := caps["semanticTokensProvider"].(map[string]any)["legend"].(map[string]any)["tokenTypes"]
	var types []string
	for _, v := range legend.([]any) {
		types = append(types, v.(string))
	}
	// The conventions' order, written out: comparing with lsp.TokenTypes,
	// which the legend is built from, could never fail.
	want := []string{"diffHeader", "diffHunk", "diffAdded", "diffRemoved", "diffContext", "diffNoNewline"}
	if !slices.Equal(types, want) {
		t.Errorf("legend: got %v, want %v", types, want)
	}
}
