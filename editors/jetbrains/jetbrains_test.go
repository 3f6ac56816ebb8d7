// Package jetbrains holds no code: it checks the JetBrains IDE support files in this directory
// (the LSP4IJ template, the JSON schema mapping) against the rest of the repository, so that a
// renamed binary, schema or grammar breaks a test rather than a user's setup.
package jetbrains

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const (
	binary     = "lreview-lsp"
	pattern    = "*.review.json"
	languageID = "lreview"
	// The install from a checkout comes first everywhere; the published
	// module's command second, for installing without a checkout.
	checkoutInstall  = "go install ./cmd/lreview-lsp"
	installCommand   = "go install github.com/leanreview/lreview-lsp/cmd/lreview-lsp@latest"
	publishedMarker  = "without a checkout"
	goVersionMention = "Go 1.26 or newer"
	schemaRepoPath   = "schema/review-exchange.v1.schema.json" // relative to the repository root
	repoRoot         = "../.."                                 // from this directory
)

// readJSON decodes a JSON file of this directory (or the repository) into v.
func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s is not valid JSON for %T: %v", path, v, err)
	}
}

func TestFilesAreValidJSON(t *testing.T) {
	for _, path := range []string{
		"lsp4ij-template/template.json",
		"lsp4ij-template/initializationOptions.json",
		"lsp4ij-template/settings.json",
		"lsp4ij-template/clientSettings.json",
		"lsp4ij-template/installer.json",
		"json-schema-mapping.json",
	} {
		t.Run(path, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("read %s: %v", path, err)
			}
			if !json.Valid(data) {
				t.Errorf("%s is not valid JSON", path)
			}
			var obj map[string]any
			if err := json.Unmarshal(data, &obj); err != nil {
				t.Errorf("%s: got %v, want a JSON object", path, err)
			}
		})
	}
}

// lsp4ijTemplate is the part of LSP4IJ's template.json that matters here.
type lsp4ijTemplate struct {
	ID               string            `json:"id"`
	Name             string            `json:"name"`
	ProgramArgs      map[string]string `json:"programArgs"`
	FileTypeMappings []struct {
		FileType struct {
			Name     string   `json:"name"`
			Patterns []string `json:"patterns"`
		} `json:"fileType"`
		LanguageID string `json:"languageId"`
	} `json:"fileTypeMappings"`
	LanguageMappings []struct {
		Language   string `json:"language"`
		LanguageID string `json:"languageId"`
	} `json:"languageMappings"`
}

func TestTemplateLaunchesServer(t *testing.T) {
	var tpl lsp4ijTemplate
	readJSON(t, "lsp4ij-template/template.json", &tpl)
	if tpl.ID == "" || tpl.Name == "" {
		t.Errorf("template id %q, name %q: want both set", tpl.ID, tpl.Name)
	}
	if _, ok := tpl.ProgramArgs["default"]; !ok {
		t.Errorf("programArgs has keys %v, want a \"default\"", keys(tpl.ProgramArgs))
	}
	// LSP4IJ picks the OS key ("windows", "mac", "unix") and falls back to "default".
	for os, cmd := range tpl.ProgramArgs {
		if !slices.Contains([]string{"default", "windows", "mac", "unix"}, os) {
			t.Errorf("programArgs key %q: want one of default, windows, mac, unix", os)
		}
		fields := strings.Fields(cmd)
		wantBin := binary
		if os == "windows" {
			wantBin = binary + ".exe"
		}
		if len(fields) != 2 || fields[0] != wantBin || fields[1] != "--stdio" {
			t.Errorf("programArgs[%q] = %q, want %q", os, cmd, wantBin+" --stdio")
		}
	}
}

func TestTemplateMapsReviewFiles(t *testing.T) {
	var tpl lsp4ijTemplate
	readJSON(t, "lsp4ij-template/template.json", &tpl)
	found := false
	for _, m := range tpl.FileTypeMappings {
		// A fileType name would map a whole IDE file type (e.g. every JSON file): not wanted.
		if m.FileType.Name != "" {
			t.Errorf("fileTypeMappings maps file type %q, want file name patterns only", m.FileType.Name)
		}
		if slices.Contains(m.FileType.Patterns, pattern) {
			found = true
			if m.LanguageID != languageID {
				t.Errorf("mapping of %s: languageId got %q, want %q", pattern, m.LanguageID, languageID)
			}
		}
	}
	if !found {
		t.Errorf("fileTypeMappings %+v: want the pattern %s", tpl.FileTypeMappings, pattern)
	}
	// A language mapping to JSON would start the server for every JSON file.
	if len(tpl.LanguageMappings) > 0 {
		t.Errorf("languageMappings got %+v, want none (the pattern mapping is enough)", tpl.LanguageMappings)
	}
}

// serverSettings is the shape of initializationOptions and of the "lreview" settings section.
type serverSettings struct {
	Author      *string `json:"author"`
	Diagnostics *struct {
		Disabled []string `json:"disabled"`
	} `json:"diagnostics"`
}

func checkSettings(t *testing.T, where string, s serverSettings) {
	t.Helper()
	if s.Author == nil {
		t.Errorf("%s: no \"author\" member", where)
	}
	if s.Diagnostics == nil || s.Diagnostics.Disabled == nil {
		t.Errorf("%s: no \"diagnostics\": {\"disabled\": [...]} member", where)
	}
}

func TestTemplateSettingsShape(t *testing.T) {
	var init serverSettings
	readJSON(t, "lsp4ij-template/initializationOptions.json", &init)
	checkSettings(t, "initializationOptions.json", init)

	var settings map[string]serverSettings
	readJSON(t, "lsp4ij-template/settings.json", &settings)
	s, ok := settings["lreview"]
	if !ok {
		t.Fatalf("settings.json has sections %v, want \"lreview\"", keys(settings))
	}
	checkSettings(t, "settings.json lreview", s)
	if len(settings) != 1 {
		t.Errorf("settings.json has sections %v, want only \"lreview\"", keys(settings))
	}
}

func TestTemplateInstaller(t *testing.T) {
	data, err := os.ReadFile("lsp4ij-template/installer.json")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{installCommand, publishedMarker, checkoutInstall, `"which lreview-lsp"`, binary + " --stdio"} {
		if !strings.Contains(text, want) {
			t.Errorf("installer.json lacks %q", want)
		}
	}
}

func TestTemplateReadme(t *testing.T) {
	for _, path := range []string{"lsp4ij-template/README.md", "README.md"} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		for _, want := range []string{checkoutInstall, installCommand, publishedMarker, goVersionMention, pattern, binary + " --stdio"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s does not mention %q", path, want)
			}
		}
		if c, p := strings.Index(text, checkoutInstall), strings.Index(text, installCommand); c < 0 || p < c {
			t.Errorf("%s: got the published command at %d and the checkout's at %d, want the checkout's first", path, p, c)
		}
	}
}

// mapping is json-schema-mapping.json.
type mapping struct {
	Name            string   `json:"name"`
	SchemaURL       string   `json:"schemaUrl"`
	SchemaPath      string   `json:"schemaPath"`
	SchemaVersion   string   `json:"schemaVersion"`
	Patterns        []string `json:"patterns"`
	IDEFile         string   `json:"ideFile"`
	TextMateBundle  string   `json:"textMateBundle"`
	TextMateGrammar string   `json:"textMateGrammar"`
}

func TestSchemaMappingMatchesSchema(t *testing.T) {
	var m mapping
	readJSON(t, "json-schema-mapping.json", &m)
	if m.Name == "" {
		t.Error("mapping has no name")
	}
	if !slices.Equal(m.Patterns, []string{pattern}) {
		t.Errorf("mapping patterns got %v, want [%s]", m.Patterns, pattern)
	}
	if m.SchemaPath != schemaRepoPath {
		t.Errorf("mapping schemaPath got %q, want %q", m.SchemaPath, schemaRepoPath)
	}

	schemaFile := filepath.Join(repoRoot, filepath.FromSlash(m.SchemaPath))
	var schema struct {
		ID     string `json:"$id"`
		Schema string `json:"$schema"`
	}
	readJSON(t, schemaFile, &schema)
	if schema.ID != m.SchemaURL {
		t.Errorf("schema $id got %q, mapping schemaUrl %q: want equal", schema.ID, m.SchemaURL)
	}
	if schema.ID != "https://leanreview.dev/schema/review-exchange.v1.schema.json" {
		t.Errorf("schema $id got %q, want the published URL from the conventions", schema.ID)
	}
	if want := "https://json-schema.org/draft/2020-12/schema"; schema.Schema != want || m.SchemaVersion != "2020-12" {
		t.Errorf("schema $schema %q, mapping schemaVersion %q: want %q and 2020-12", schema.Schema, m.SchemaVersion, want)
	}
}

// jsonSchemasXML is the part of the IDE's .idea/jsonSchemas.xml read here.
type jsonSchemasXML struct {
	Component struct {
		Name    string `xml:"name,attr"`
		Entries []struct {
			Key     string `xml:"key,attr"`
			Options []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
				Items []struct {
					Options []struct {
						Name  string `xml:"name,attr"`
						Value string `xml:"value,attr"`
					} `xml:"option"`
				} `xml:"list>Item"`
			} `xml:"value>SchemaInfo>option"`
		} `xml:"state>map>entry"`
	} `xml:"component"`
}

func TestIDESchemaMappingFile(t *testing.T) {
	var m mapping
	readJSON(t, "json-schema-mapping.json", &m)
	data, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(m.IDEFile)))
	if err != nil {
		t.Fatalf("mapping ideFile %q: %v", m.IDEFile, err)
	}
	var x jsonSchemasXML
	if err := xml.Unmarshal(data, &x); err != nil {
		t.Fatalf("jsonSchemas.xml is not valid XML: %v", err)
	}
	if x.Component.Name != "JsonSchemaMappingsProjectConfiguration" {
		t.Errorf("component %q, want JsonSchemaMappingsProjectConfiguration", x.Component.Name)
	}
	if len(x.Component.Entries) != 1 {
		t.Fatalf("got %d entries, want 1", len(x.Component.Entries))
	}
	e := x.Component.Entries[0]
	if e.Key != m.Name {
		t.Errorf("entry key %q, want the mapping name %q", e.Key, m.Name)
	}
	opts := map[string]string{}
	var patterns []string
	for _, o := range e.Options {
		opts[o.Name] = o.Value
		for _, it := range o.Items {
			item := map[string]string{}
			for _, io := range it.Options {
				item[io.Name] = io.Value
			}
			if item["mappingKind"] != "Pattern" {
				t.Errorf("mapping item %v: mappingKind got %q, want Pattern", item, item["mappingKind"])
			}
			patterns = append(patterns, item["path"])
		}
	}
	if opts["name"] != m.Name {
		t.Errorf("SchemaInfo name %q, want %q", opts["name"], m.Name)
	}
	if opts["relativePathToSchema"] != m.SchemaURL {
		t.Errorf("SchemaInfo relativePathToSchema %q, want the schema URL %q", opts["relativePathToSchema"], m.SchemaURL)
	}
	if !strings.Contains(strings.NewReplacer(",", "", ".", "", "-", "").Replace(opts["schemaVersion"]), "202012") {
		t.Errorf("SchemaInfo schemaVersion %q, want the 2020-12 label", opts["schemaVersion"])
	}
	if !slices.Equal(patterns, []string{pattern}) {
		t.Errorf("SchemaInfo patterns %v, want [%s]", patterns, pattern)
	}
}

func TestTextMateBundleExists(t *testing.T) {
	var m mapping
	readJSON(t, "json-schema-mapping.json", &m)
	bundle := filepath.Join(repoRoot, filepath.FromSlash(m.TextMateBundle))

	// JetBrains IDEs read a VS Code extension directory as a TextMate bundle through its
	// package.json: contributes.grammars and contributes.languages.
	var pkg struct {
		Contributes struct {
			Languages []struct {
				ID               string   `json:"id"`
				Extensions       []string `json:"extensions"`
				FilenamePatterns []string `json:"filenamePatterns"`
			} `json:"languages"`
			Grammars []struct {
				Language  string `json:"language"`
				ScopeName string `json:"scopeName"`
				Path      string `json:"path"`
			} `json:"grammars"`
		} `json:"contributes"`
	}
	readJSON(t, filepath.Join(bundle, "package.json"), &pkg)

	var langOK bool
	for _, l := range pkg.Contributes.Languages {
		if l.ID == languageID && slices.Contains(l.Extensions, ".review.json") && slices.Contains(l.FilenamePatterns, pattern) {
			langOK = true
		}
	}
	if !langOK {
		t.Errorf("bundle package.json languages %+v: want %s with extension .review.json and pattern %s", pkg.Contributes.Languages, languageID, pattern)
	}

	var grammarPath string
	for _, g := range pkg.Contributes.Grammars {
		if g.Language == languageID {
			if g.ScopeName != "source.lreview" {
				t.Errorf("grammar scopeName %q, want source.lreview", g.ScopeName)
			}
			grammarPath = filepath.Join(bundle, filepath.FromSlash(g.Path))
		}
	}
	if grammarPath == "" {
		t.Fatalf("bundle package.json contributes no grammar for %s", languageID)
	}
	if want := filepath.Join(repoRoot, filepath.FromSlash(m.TextMateGrammar)); filepath.Clean(grammarPath) != filepath.Clean(want) {
		t.Errorf("grammar path %s, mapping textMateGrammar %s: want the same file", grammarPath, want)
	}
	var grammar struct {
		ScopeName string         `json:"scopeName"`
		FileTypes []string       `json:"fileTypes"`
		Patterns  []any          `json:"patterns"`
		Repo      map[string]any `json:"repository"`
	}
	readJSON(t, grammarPath, &grammar)
	if grammar.ScopeName != "source.lreview" || len(grammar.Patterns) == 0 || len(grammar.Repo) == 0 {
		t.Errorf("grammar %s: scopeName %q, %d patterns, %d repository rules: want source.lreview and rules",
			grammarPath, grammar.ScopeName, len(grammar.Patterns), len(grammar.Repo))
	}
	if !slices.Contains(grammar.FileTypes, "review.json") {
		t.Errorf("grammar fileTypes %v, want review.json", grammar.FileTypes)
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
