package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addTool registers a tool whose arguments are checked here, not by the
// SDK: its validator answers a wrong argument with its own schema words
// (`validating root: … enum: right does not equal any of: [RIGHT LEFT]`),
// where an agent needs the argument, the values allowed and what to do.
// The schemas are the ones the SDK would infer, the input's with the
// values of side and state listed and lines from 1, the output's without
// nullable types (the server sends an empty array, or leaves an object
// out, never null, and single-type schema dialects handle ["null","array"]
// badly).
func addTool[In, Out any](srv *mcp.Server, t *mcp.Tool, lines []string, h func(context.Context, *mcp.CallToolRequest, In) (*mcp.CallToolResult, Out, error)) {
	t.InputSchema = inputSchema[In](lines)
	t.OutputSchema = outputSchema[Out]()
	in := t.InputSchema.(*jsonschema.Schema)
	srv.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		defer recovered(t.Name, &res, &err)
		var args In
		if err := decodeArgs(t.Name, in, req.Params.Arguments, &args); err != nil {
			return errorResult(err), nil
		}
		res, out, err := h(ctx, req, args)
		if err != nil {
			return errorResult(err), nil
		}
		data, err := json.Marshal(out)
		if err != nil {
			return nil, fmt.Errorf("%s: encoding its result: %v", t.Name, err)
		}
		res.StructuredContent = json.RawMessage(data)
		return res, nil
	})
}

// recovered turns a panic of tool's call into its error result: a review
// is untrusted data, and a bug it finds ends one call, not the session
// (the SDK would let it end the process). The stack goes to the
// server's standard error, the client's log.
func recovered(tool string, res **mcp.CallToolResult, err *error) {
	v := recover()
	if v == nil {
		return
	}
	fmt.Fprintf(os.Stderr, "lreview-lsp mcp: %s panicked: %v\n%s", tool, v, debug.Stack())
	*res, *err = errorResult(fmt.Errorf("%s: internal error (%v): the call stopped, the server goes on; please report it with the arguments given", tool, v)), nil
}

func errorResult(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
}

// decodeArgs checks the arguments raw against the tool's input schema s,
// saying what is wrong in words, and decodes them into args.
func decodeArgs(tool string, s *jsonschema.Schema, raw json.RawMessage, args any) error {
	var m map[string]json.RawMessage
	if len(bytes.TrimSpace(raw)) > 0 && !bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		if err := json.Unmarshal(raw, &m); err != nil {
			return fmt.Errorf("arguments: expected a JSON object of named arguments (%s)", argNames(s))
		}
	}
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		p := s.Properties[name]
		if p == nil && name == "author" {
			return argError(name, "%s takes no author: who the agent writes as is fixed when the server starts (lreview-lsp mcp --agent NAME, else the client's name at initialize), never chosen by a call", tool)
		}
		if p == nil {
			return argError(name, "%s takes no argument %q; its arguments are %s", tool, name, argNames(s))
		}
		if err := checkValue(name, p, m[name]); err != nil {
			return err
		}
	}
	for _, name := range s.Required {
		if _, ok := m[name]; !ok {
			return argError(name, "missing: %s", strings.TrimSpace(s.Properties[name].Description+" (required)"))
		}
	}
	if m == nil {
		return nil
	}
	return json.Unmarshal(raw, args)
}

// argNames lists a schema's properties, the required ones first.
func argNames(s *jsonschema.Schema) string {
	var names []string
	for name := range s.Properties {
		if !slices.Contains(s.Required, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return strings.Join(slices.Concat(s.Required, names), ", ")
}

// checkValue checks one argument against its property's schema: its type,
// its allowed values and its minimum.
func checkValue(name string, p *jsonschema.Schema, raw json.RawMessage) error {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return argError(name, "not a JSON value")
	}
	switch p.Type {
	case "string":
		str, ok := v.(string)
		if !ok {
			return argError(name, "expected a string, got %s", raw)
		}
		if len(p.Enum) > 0 && !slices.Contains(p.Enum, any(str)) {
			words := make([]string, len(p.Enum))
			for i, e := range p.Enum {
				words[i] = fmt.Sprint(e)
			}
			return argError(name, "expected %s (exactly so), got %q", orList(words), str)
		}
	case "integer":
		f, ok := v.(float64)
		if !ok || f != math.Trunc(f) {
			return argError(name, "expected a whole number, got %s", raw)
		}
		if p.Minimum != nil && f < *p.Minimum {
			return argError(name, "expected %g or more, got %s", *p.Minimum, raw)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return argError(name, "expected true or false, got %s", raw)
		}
	}
	if p.Type == "object" || slices.Contains(p.Types, "object") {
		if _, ok := v.(map[string]any); !ok && v != nil {
			return argError(name, "expected an object with %s, got %s", argNames(p), raw)
		}
	}
	return nil
}

// orList words a choice: "a", "a or b", "a, b or c".
func orList(words []string) string {
	if len(words) <= 1 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// outputSchema is the schema AddTool would infer for T, each member
// typed without "null".
func outputSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("output schema of %T: %v", *new(T), err)) // a type of this package: a test sees it
	}
	notNull(s)
	return s
}

func notNull(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && slices.Contains(s.Types, "null") {
		other := s.Types[0]
		if other == "null" {
			other = s.Types[1]
		}
		s.Types, s.Type = nil, other
	}
	for _, p := range s.Properties {
		notNull(p)
	}
	for _, d := range s.Defs {
		notNull(d)
	}
	notNull(s.Items)
	notNull(s.AdditionalProperties)
}
