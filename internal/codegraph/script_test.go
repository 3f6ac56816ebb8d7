package codegraph

import (
	"slices"
	"testing"
)

func TestTypeScriptImports(t *testing.T) {
	g := buildTree(t, writeTree(t, map[string]string{
		"package.json": `{"name": "web"}`,
		"src/auth/session.ts": "// import { nope } from './ghost'\n" +
			"export interface Session { user: string }\n" +
			"export async function login(user: string): Promise<Session> {\n" +
			"  const re = /from '.\\/fake'/g;\n" +
			"  return { user: `${user.replace(re, '')}` };\n" +
			"}\n" +
			"export const TTL = 60;\n",
		"src/auth/index.ts": "export { login, type Session } from './session';\n",
		"src/app.tsx": "import React from 'react';\n" +
			"import { login } from './auth/session.js';\n" +
			"import * as auth from './auth';\n" +
			"const s = \"import x from './ghost2'\";\n" +
			"export default function App() { return <p>Don't {s}</p>; }\n",
		"src/app.test.ts": "import App from './app';\nconst lazy = () => import('./auth/index');\n",
		"src/util.js":     "const fs = require('fs');\nmodule.exports = { x: require('./auth/session') };\n",
	}))
	cases := map[string][]string{
		"src/app.tsx":         {"src/auth/index.ts", "src/auth/session.ts"},
		"src/auth/index.ts":   {"src/auth/session.ts"},
		"src/app.test.ts":     {"src/app.tsx", "src/auth/index.ts"},
		"src/util.js":         {"src/auth/session.ts"},
		"src/auth/session.ts": nil,
	}
	for p, want := range cases {
		if got := g.Imports(p); !slices.Equal(got, want) {
			t.Errorf("Imports(%s) = %v, want %v", p, got, want)
		}
	}
	if got := g.File("src/app.tsx").External; !slices.Equal(got, []string{"react"}) {
		t.Errorf("app.tsx external = %v, want [react]", got)
	}
	login := g.Lookup("src/auth/session.ts.login")
	if len(login) != 1 {
		t.Fatalf("Lookup(login) = %v", login)
	}
	var from []string
	for _, u := range g.Uses(login[0]) {
		from = append(from, u.Path)
	}
	if want := []string{"src/app.tsx", "src/auth/index.ts"}; !slices.Equal(from, want) {
		t.Errorf("uses of login: %v, want %v", from, want)
	}
	if !g.File("src/app.test.ts").Test || g.File("src/app.tsx").Test {
		t.Errorf("test files: app.test.ts %v, app.tsx %v", g.File("src/app.test.ts").Test, g.File("src/app.tsx").Test)
	}
	d := g.Def(login[0])
	if d.Line != 3 || d.EndLine != 6 || !d.Exported {
		t.Errorf("login: lines %d-%d exported %v, want 3-6 true", d.Line, d.EndLine, d.Exported)
	}
}

func TestPythonImports(t *testing.T) {
	g := buildTree(t, writeTree(t, map[string]string{
		"pyproject.toml":       "[project]\nname='shop'\n",
		"src/shop/__init__.py": "from .models import Item\n",
		"src/shop/models.py": "'''Models.\nimport os\n'''\nimport dataclasses\n\n@dataclasses.dataclass\nclass Item:\n    name: str\n\n" +
			"def price(item):\n    return 1\n\n_cache = {}\n",
		"src/shop/api.py":      "from shop.models import (\n    Item,\n    price as p,\n)\nfrom . import db\n\ndef handle():\n    import shop.util\n    return f\"{p(Item())}\"\n",
		"src/shop/db.py":       "x = 1\n",
		"src/shop/util.py":     "# from shop import api\n",
		"tests/test_models.py": "from shop.models import price\n",
	}))
	cases := map[string][]string{
		"src/shop/__init__.py": {"src/shop/models.py"},
		"src/shop/api.py":      {"src/shop/db.py", "src/shop/models.py", "src/shop/util.py"},
		"tests/test_models.py": {"src/shop/models.py"},
		"src/shop/util.py":     nil,
	}
	for p, want := range cases {
		if got := g.Imports(p); !slices.Equal(got, want) {
			t.Errorf("Imports(%s) = %v, want %v", p, got, want)
		}
	}
	price := g.Lookup("src/shop/models.py.price")
	if len(price) != 1 {
		t.Fatalf("Lookup(price) = %v", price)
	}
	var from []string
	for _, u := range g.Uses(price[0]) {
		from = append(from, u.Path)
	}
	if want := []string{"src/shop/api.py", "tests/test_models.py"}; !slices.Equal(from, want) {
		t.Errorf("uses of price: %v, want %v", from, want)
	}
	if d := g.Def(price[0]); d.Line != 10 || d.EndLine != 12 {
		t.Errorf("price: lines %d-%d, want 10-12", d.Line, d.EndLine)
	}
	if ids := g.Lookup("_cache"); len(ids) != 1 || g.Def(ids[0]).Exported {
		t.Errorf("_cache: %v, want one unexported", ids)
	}
}

func TestCoverageSaysWhatIsGrouped(t *testing.T) {
	g := buildTree(t, writeTree(t, map[string]string{
		"go.mod":                  "module m\n",
		"main.go":                 "package main\nfunc main() {}\n",
		"core/lib.rs":             "fn main() {}\n",
		"core/util.rs":            "fn x() {}\n",
		"node_modules/x/index.js": "export const a = 1\n",
	}))
	want := []Coverage{coverageFor("Rust", 2), coverageFor("go", 1)}
	if !slices.Equal(g.Coverage, want) {
		t.Errorf("coverage = %+v, want %+v", g.Coverage, want)
	}
	if c := g.CoverageOf("core/lib.rs"); c.Note != "no code graph for Rust: grouped by path" {
		t.Errorf("CoverageOf(lib.rs) = %q", c.Note)
	}
	if g.File("node_modules/x/index.js") != nil {
		t.Errorf("node_modules is read; want it left out")
	}
}
