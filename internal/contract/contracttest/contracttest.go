// Package contracttest makes real OpenAPI descriptions and reviews of
// their changes for tests: a description of an orders API, the changes a
// contract review meets (an endpoint removed, a parameter newly required,
// a type narrowed, an endpoint added, a schema renamed behind its $refs),
// written as YAML or JSON for OpenAPI 3.0 or 3.1, committed in a
// temporary git repository and diffed by git itself.
package contracttest

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Spec is a description as data: maps, slices and scalars.
type Spec map[string]any

// Orders is the orders API in OpenAPI version (3.0.3 or 3.1.0): GET and
// POST /orders (limit optional), GET and DELETE /orders/{id}, the Order
// schema behind $refs.
func Orders(version string) Spec {
	amount := map[string]any{"type": "number"}
	note := map[string]any{"type": "string", "nullable": true}
	if strings.HasPrefix(version, "3.1") {
		note = map[string]any{"type": []any{"string", "null"}}
	}
	orderRef := map[string]any{"$ref": "#/components/schemas/Order"}
	idParam := map[string]any{"name": "id", "in": "path", "required": true, "schema": map[string]any{"type": "string"}}
	return Spec{
		"openapi": version,
		"info":    map[string]any{"title": "Orders", "version": "1.0.0"},
		"paths": map[string]any{
			"/orders": map[string]any{
				"get": map[string]any{
					"operationId": "listOrders",
					"parameters": []any{map[string]any{
						"name": "limit", "in": "query", "required": false,
						"schema": map[string]any{"type": "integer"},
					}},
					"responses": map[string]any{"200": map[string]any{
						"description": "the orders",
						"content": map[string]any{"application/json": map[string]any{
							"schema": map[string]any{"type": "array", "items": orderRef},
						}},
					}},
				},
				"post": map[string]any{
					"operationId": "createOrder",
					"requestBody": map[string]any{"required": true, "content": map[string]any{
						"application/json": map[string]any{"schema": orderRef},
					}},
					"responses": map[string]any{"201": map[string]any{"description": "created"}},
				},
			},
			"/orders/{id}": map[string]any{
				"get": map[string]any{
					"operationId": "getOrder",
					"parameters":  []any{idParam},
					"responses": map[string]any{"200": map[string]any{
						"description": "the order",
						"content":     map[string]any{"application/json": map[string]any{"schema": orderRef}},
					}},
				},
				"delete": map[string]any{
					"operationId": "deleteOrder",
					"parameters":  []any{idParam},
					"responses":   map[string]any{"204": map[string]any{"description": "deleted"}},
				},
			},
		},
		"components": map[string]any{"schemas": map[string]any{
			"Order": map[string]any{
				"type":     "object",
				"required": []any{"id", "amount"},
				"properties": map[string]any{
					"id":     map[string]any{"type": "string"},
					"amount": amount,
					"note":   note,
				},
			},
		}},
	}
}

// Copy is a deep copy of s, to change.
func (s Spec) Copy() Spec {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	var out Spec
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return out
}

// Get walks s by keys.
func (s Spec) Get(keys ...string) map[string]any {
	m := map[string]any(s)
	for _, k := range keys {
		m = m[k].(map[string]any)
	}
	return m
}

// The changes a contract review meets, each applied to a copy.

// RemoveDelete removes DELETE /orders/{id}: breaking.
func (s Spec) RemoveDelete() Spec {
	c := s.Copy()
	delete(c.Get("paths", "/orders/{id}"), "delete")
	return c
}

// RequireLimit makes GET /orders's limit required: breaking.
func (s Spec) RequireLimit() Spec {
	c := s.Copy()
	p := c.Get("paths", "/orders", "get")["parameters"].([]any)[0].(map[string]any)
	p["required"] = true
	return c
}

// NarrowAmount narrows Order.amount from number to integer: breaking for
// the request body that sends an Order.
func (s Spec) NarrowAmount() Spec {
	c := s.Copy()
	c.Get("components", "schemas", "Order", "properties", "amount")["type"] = "integer"
	return c
}

// AddEndpoint adds GET /customers: not breaking.
func (s Spec) AddEndpoint() Spec {
	c := s.Copy()
	c.Get("paths")["/customers"] = map[string]any{"get": map[string]any{
		"operationId": "listCustomers",
		"responses":   map[string]any{"200": map[string]any{"description": "the customers"}},
	}}
	return c
}

// RenameSchema renames Order to PurchaseOrder and every $ref to it: the
// contract is the same.
func (s Spec) RenameSchema() Spec {
	c := s.Copy()
	schemas := c.Get("components", "schemas")
	schemas["PurchaseOrder"] = schemas["Order"]
	delete(schemas, "Order")
	b, _ := json.Marshal(c)
	b = []byte(strings.ReplaceAll(string(b), "#/components/schemas/Order\"", "#/components/schemas/PurchaseOrder\""))
	var out Spec
	_ = json.Unmarshal(b, &out)
	return out
}

// JSON writes s as indented JSON, members sorted.
func (s Spec) JSON() string {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		panic(err)
	}
	return string(b) + "\n"
}

// YAML writes s as block YAML, members sorted.
func (s Spec) YAML() string {
	var b strings.Builder
	writeYAML(&b, map[string]any(s), "")
	return b.String()
}

func writeYAML(b *strings.Builder, v any, indent string) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			writeEntry(b, indent+yamlScalar(k)+":", v[k], indent)
		}
	case []any:
		for _, e := range v {
			if m, ok := e.(map[string]any); ok && len(m) > 0 {
				var inner strings.Builder
				writeYAML(&inner, m, indent+"  ")
				fmt.Fprintf(b, "%s- %s", indent, strings.TrimPrefix(inner.String(), indent+"  "))
				continue
			}
			writeEntry(b, indent+"-", e, indent)
		}
	}
}

func writeEntry(b *strings.Builder, head string, v any, indent string) {
	switch v := v.(type) {
	case map[string]any:
		if len(v) == 0 {
			b.WriteString(head + " {}\n")
			return
		}
		b.WriteString(head + "\n")
		writeYAML(b, v, indent+"  ")
	case []any:
		if len(v) == 0 {
			b.WriteString(head + " []\n")
			return
		}
		b.WriteString(head + "\n")
		writeYAML(b, v, indent+"  ")
	default:
		b.WriteString(head + " " + yamlScalar(v) + "\n")
	}
}

func yamlScalar(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case nil:
		return "null"
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

// Repo is a git repository in a temporary directory holding a file
// changed from before to after (empty: the file is absent on that side),
// committed, and the review of `git diff` between them. The working tree
// holds after. Args are more arguments for git diff (-U99 for a
// full-context diff).
type Repo struct {
	Root   string
	Patch  []string
	Review string // the review document
	// ReviewFile is Review written under Root/reviews.
	ReviewFile string
}

// NewRepo makes the repository: files maps paths to [before, after].
func NewRepo(tb testing.TB, files map[string][2]string, args ...string) *Repo {
	tb.Helper()
	root := tb.TempDir()
	git := func(a ...string) string {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, a...)...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+root)
		out, err := cmd.CombinedOutput()
		if err != nil {
			tb.Fatalf("git %v: %v\n%s", a, err, out)
		}
		return string(out)
	}
	write := func(side int) {
		for name, texts := range files {
			p := filepath.Join(root, filepath.FromSlash(name))
			if texts[side] == "" {
				_ = os.Remove(p)
				continue
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				tb.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(texts[side]), 0o644); err != nil {
				tb.Fatal(err)
			}
		}
	}
	git("init", "-q", "-b", "main")
	write(0)
	git("add", "-A")
	git("commit", "-q", "--allow-empty", "-m", "before")
	write(1)
	git("add", "-A")
	diff := git(append([]string{"diff", "--cached", "--no-color", "--no-ext-diff"}, args...)...)
	r := &Repo{Root: root, Patch: strings.Split(strings.TrimSuffix(diff, "\n"), "\n")}
	r.Review = ReviewOf(r.Patch)
	r.ReviewFile = filepath.Join(root, "reviews", "api.review.json")
	if err := os.MkdirAll(filepath.Dir(r.ReviewFile), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(r.ReviewFile, []byte(r.Review), 0o644); err != nil {
		tb.Fatal(err)
	}
	return r
}

// ReviewOf is a review of patch without comments, one patch line an
// element, laid out as the project writes it.
func ReviewOf(patch []string, comments ...string) string {
	var b strings.Builder
	b.WriteString("{\n  \"leanreview_review\": 1,\n  \"title\": \"orders API\",\n  \"patch\": [\n")
	for i, l := range patch {
		q, _ := json.Marshal(l)
		b.WriteString("    " + string(q))
		if i < len(patch)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  ],\n  \"comments\": [")
	for i, c := range comments {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    " + c)
	}
	if len(comments) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}\n")
	return b.String()
}

// Hostile is the description of issue 44's bound test, before and after
// a change: schemas schemas, each depth levels of nested objects, each
// changed at the leaf (a string narrowed to an integer), each sent by a
// POST and read back by its response — the comparison walks every level
// of every schema on both sides. Written as one-line JSON, as a
// generator would (about 200 bytes a schema level... measured: 4.9 MB for
// 24 schemas 4,900 levels deep).
func Hostile(schemas, depth int) (before, after string) {
	return hostileText(schemas, depth, "string"), hostileText(schemas, depth, "integer")
}

func hostileText(schemas, depth int, leaf string) string {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.3","info":{"title":"hostile","version":"1"},"paths":{`)
	for i := range schemas {
		if i > 0 {
			b.WriteByte(',')
		}
		ref := fmt.Sprintf(`{"$ref":"#/components/schemas/S%d"}`, i)
		fmt.Fprintf(&b, `"/s%d":{"post":{"operationId":"post%d","requestBody":{"content":{"application/json":{"schema":%s}}},"responses":{"200":{"description":"ok","content":{"application/json":{"schema":%s}}}}}}`, i, i, ref, ref)
	}
	b.WriteString(`},"components":{"schemas":{`)
	for i := range schemas {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"S%d":`, i)
		for range depth {
			b.WriteString(`{"type":"object","properties":{"c":`)
		}
		fmt.Fprintf(&b, `{"type":%q}`, leaf)
		b.WriteString(strings.Repeat("}}", depth))
	}
	b.WriteString("}}}\n")
	return b.String()
}

// FirstLine is a RIGHT line of the first hunk of path in the patch: a
// line a comment on that file anchors to. 0 when the patch has none.
func FirstLine(patch []string, path string) int {
	in := false
	for _, l := range patch {
		switch {
		case strings.HasPrefix(l, "diff --git "):
			in = false
		case l == "+++ b/"+path:
			in = true
		case in && strings.HasPrefix(l, "@@ "):
			var a, b, c, d int
			if _, err := fmt.Sscanf(l, "@@ -%d,%d +%d,%d @@", &a, &b, &c, &d); err == nil && d > 0 {
				return c
			}
		}
	}
	return 0
}

// Wide is a realistic large description: n endpoints, each posting and
// returning its own schema of a dozen properties two objects deep, as
// block YAML (about 2.3 kB an endpoint).
func Wide(n int) Spec {
	paths, schemas := map[string]any{}, map[string]any{}
	for i := range n {
		name := fmt.Sprintf("Thing%d", i)
		ref := map[string]any{"$ref": "#/components/schemas/" + name}
		paths[fmt.Sprintf("/things%d/{id}", i)] = map[string]any{
			"post": map[string]any{
				"operationId": fmt.Sprintf("postThing%d", i),
				"parameters":  []any{map[string]any{"name": "id", "in": "path", "required": true, "schema": map[string]any{"type": "string"}}},
				"requestBody": map[string]any{"content": map[string]any{"application/json": map[string]any{"schema": ref}}},
				"responses":   map[string]any{"200": map[string]any{"description": "ok", "content": map[string]any{"application/json": map[string]any{"schema": ref}}}},
			},
		}
		props := map[string]any{}
		for j := range 10 {
			props[fmt.Sprintf("field%d", j)] = map[string]any{"type": "string", "maxLength": 64}
		}
		props["address"] = map[string]any{"type": "object", "properties": map[string]any{
			"street": map[string]any{"type": "string"}, "city": map[string]any{"type": "string"},
			"geo": map[string]any{"type": "object", "properties": map[string]any{"lat": map[string]any{"type": "number"}, "lon": map[string]any{"type": "number"}}},
		}}
		schemas[name] = map[string]any{"type": "object", "required": []any{"field0"}, "properties": props}
	}
	return Spec{"openapi": "3.0.3", "info": map[string]any{"title": "wide", "version": "1"}, "paths": paths, "components": map[string]any{"schemas": schemas}}
}

// RemoveFirst removes Wide's first endpoint: breaking.
func (s Spec) RemoveFirst() Spec {
	c := s.Copy()
	delete(c.Get("paths"), "/things0/{id}")
	return c
}
