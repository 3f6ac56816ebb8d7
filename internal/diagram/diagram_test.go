package diagram

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// goGraph is a code graph of one Go package's source, enough to check
// edges: its functions and methods (pkg.Name, pkg.Type.Method) and which
// calls which.
type goGraph struct {
	defs  map[string]bool
	calls map[[2]string]bool
}

func newGoGraph(t *testing.T, src string) *goGraph {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	g := &goGraph{defs: map[string]bool{}, calls: map[[2]string]bool{}}
	pkg := f.Name.Name
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		name := pkg + "." + fd.Name.Name
		if fd.Recv != nil {
			typ := fd.Recv.List[0].Type
			if s, ok := typ.(*ast.StarExpr); ok {
				typ = s.X
			}
			name = pkg + "." + typ.(*ast.Ident).Name + "." + fd.Name.Name
		}
		g.defs[name] = true
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				switch fn := c.Fun.(type) {
				case *ast.Ident:
					g.calls[[2]string{name, pkg + "." + fn.Name}] = true
				case *ast.SelectorExpr:
					g.calls[[2]string{name, "method." + fn.Sel.Name}] = true
				}
			}
			return true
		})
	}
	return g
}

func (g *goGraph) Has(code string) bool { return g.defs[code] }
func (g *goGraph) Uses(from, to string) (bool, string) {
	if g.calls[[2]string{from, to}] {
		return true, ""
	}
	last := to[strings.LastIndex(to, ".")+1:]
	if g.calls[[2]string{from, "method." + last}] {
		return true, ""
	}
	return false, from + " does not call " + to
}

const orders = `package orders

type Service struct{}

func (s *Service) Place(id int) error { return s.charge(id) }

func (s *Service) charge(id int) error { return nil }

func Notify(id int) {}
`

func TestCheckAndMermaid(t *testing.T) {
	g := newGoGraph(t, orders)
	d := Diagram{Kind: Sequence, Title: "placing an order",
		Participants: []Node{{ID: "svc", Label: "Service", Code: "orders.Service.Place"}, {ID: "pay", Label: "charge", Code: "orders.Service.charge"}, {ID: "mail", Label: "Notify", Code: "orders.Notify"}},
		Messages:     []Edge{{From: "svc", To: "pay", Label: "charge(id)"}, {From: "svc", To: "mail", Label: "notify the buyer"}},
	}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	checked := d.Check(g)
	if !checked[0].Verified || checked[1].Verified || checked[1].Reason != "orders.Service.Place does not call orders.Notify" {
		t.Fatalf("got %+v", checked)
	}
	want := "sequenceDiagram\n    participant svc as Service\n    participant pay as charge\n    participant mail as Notify\n" +
		"    svc->>pay: charge(id)\n    svc-->>mail: notify the buyer (unverified: orders.Service.Place does not call orders.Notify)\n"
	if got := d.Mermaid(checked); got != want {
		t.Errorf("mermaid:\ngot  %q\nwant %q", got, want)
	}
	// Without a graph every edge is unverified, saying so.
	if c := d.Check(nil); c[0].Verified || c[0].Reason != "no code graph of the working tree" {
		t.Errorf("no graph: got %+v", c)
	}
	sm := Diagram{Kind: StateMachine, States: []Node{{ID: "new"}, {ID: "paid"}}, Transitions: []Edge{{From: "new", To: "paid", Label: "pay"}}, Initial: "new"}
	if err := sm.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := sm.Mermaid(sm.Check(g)); !strings.Contains(got, `new -.->|"pay (unverified: names no code)"| paid`) || !strings.HasPrefix(got, "flowchart LR\n") {
		t.Errorf("state machine:\n%s", got)
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		d    Diagram
		want string
	}{
		{Diagram{Kind: "flow"}, `kind: expected sequence, entity_relation or state_machine, got "flow"`},
		{Diagram{Kind: Sequence}, "participants: expected 1 to 64 of them"},
		{Diagram{Kind: Sequence, Participants: []Node{{ID: "a"}}, States: []Node{{ID: "s"}}}, "states: a sequence diagram has participants and messages, not states"},
		{Diagram{Kind: EntityRelation, Entities: []Node{{ID: "a b"}}}, `entities[0].id: expected letters, digits and _`},
		{Diagram{Kind: EntityRelation, Entities: []Node{{ID: "a"}}, Relations: []Edge{{From: "a", To: "b"}}}, `relations[0].to: "b" is none of the entities`},
		{Diagram{Kind: StateMachine, States: []Node{{ID: "a"}}}, `initial: expected the id of one of the states, got ""`},
	} {
		if err := tc.d.Validate(); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%+v: got %v, want %q", tc.d, err, tc.want)
		}
	}
}
