package visual

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/branch/branchtest"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

const pubspecApp = "name: shop\ndependencies:\n  flutter:\n    sdk: flutter\n"
const pubspecBook = "name: shop_widgetbook\ndependencies:\n  flutter:\n    sdk: flutter\n  widgetbook: ^3.0.0\n  widgetbook_annotation: ^3.0.0\n"

func button(label string) string {
	return "import 'package:flutter/widgets.dart';\n\nclass BuyButton extends StatelessWidget {\n  const BuyButton({super.key});\n\n  @override\n  Widget build(BuildContext context) => const Text('" + label + "');\n}\n"
}

// flutterRepo is a Flutter app whose BuyButton changes in one commit,
// with extra files (a Widgetbook app, say) in the base.
func flutterRepo(t *testing.T, extra map[string]string) (*branchtest.Repo, []byte) {
	files := map[string]string{"pubspec.yaml": pubspecApp, "lib/buy_button.dart": button("Buy")}
	for p, text := range extra {
		files[p] = text
	}
	r := branchtest.NewRepo(t)
	r.Commit("base", files)
	base := strings.TrimSpace(r.Git("rev-parse", "HEAD"))
	r.Commit("label", map[string]string{"lib/buy_button.dart": button("Buy now")})
	return r, r.Review(base, "HEAD")
}

func evaluate(t *testing.T, root string, review []byte, opts Options) *Result {
	t.Helper()
	an := anchor.CheckDocument(exchange.Parse(review), nil)
	tree, err := worktree.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	return Evaluate(context.Background(), an, tree, opts)
}

func noSDK(string) (string, error) { return "", errors.New("not found") }
func anSDK(string) (string, error) { return "/opt/flutter/bin/flutter", nil }

type renderer func(side string) (map[string][]byte, error)

func (f renderer) Render(_ context.Context, _ *Job) (base, head map[string][]byte, err error) {
	if base, err = f("base"); err != nil {
		return nil, nil, err
	}
	head, err = f("head")
	return base, head, err
}

// TestDetection drives the axis on repositories the tests make: each of
// the four reasons it cannot run, and no Flutter interface code.
func TestDetection(t *testing.T) {
	book := "import 'package:widgetbook_annotation/widgetbook_annotation.dart' as widgetbook;\nimport 'package:shop/buy_button.dart';\n\n@widgetbook.UseCase(name: 'Default', type: BuyButton)\nWidget buyButton(BuildContext context) => const BuyButton();\n"
	other := strings.ReplaceAll(book, "type: BuyButton", "type: CartBadge")
	for _, tc := range []struct {
		name   string
		extra  map[string]string
		opts   Options
		reason Reason
		axis   string
	}{
		{"no Widgetbook app", nil, Options{LookPath: anSDK}, NoWidgetbook, "visual: unavailable (no Widgetbook app in the repository)"},
		{"no golden-testable use case", map[string]string{"widgetbook/pubspec.yaml": pubspecBook, "widgetbook/lib/cart.dart": other}, Options{LookPath: anSDK},
			NoUseCases, "visual: unavailable (no golden-testable use cases)"},
		{"no Flutter SDK", map[string]string{"widgetbook/pubspec.yaml": pubspecBook, "widgetbook/lib/buy.dart": book}, Options{LookPath: noSDK},
			NoFlutterSDK, "visual: unavailable (no Flutter SDK on the host)"},
		{"harness error", map[string]string{"widgetbook/pubspec.yaml": pubspecBook, "widgetbook/lib/buy.dart": book},
			Options{LookPath: anSDK, Renderer: renderer(func(string) (map[string][]byte, error) { return nil, errors.New("flutter test: exit 1") })},
			HarnessError, "visual: unavailable (the golden harness failed)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, review := flutterRepo(t, tc.extra)
			res := evaluate(t, r.Root, review, tc.opts)
			if strings.Join(res.Components, ",") != "BuyButton" || res.Reason != tc.reason {
				t.Fatalf("got components %v, reason %q; want BuyButton, %q", res.Components, res.Reason, tc.reason)
			}
			if got := res.Axis().Words(); got != tc.axis {
				t.Errorf("axis: got %q, want %q", got, tc.axis)
			}
		})
	}
	t.Run("no Flutter interface code", func(t *testing.T) {
		r := branchtest.NewRepo(t)
		r.Commit("base", map[string]string{"go.mod": "module m\n", "m.go": "package m\n"})
		base := strings.TrimSpace(r.Git("rev-parse", "HEAD"))
		r.Commit("change", map[string]string{"m.go": "package m\n\nvar X = 1\n", "lib/model.dart": "class Price { final int cents = 0; }\n"})
		res := evaluate(t, r.Root, r.Review(base, "HEAD"), Options{LookPath: anSDK})
		if res.Applies() || res.Axis().Words() != "visual: n/a" {
			t.Errorf("got %+v, want n/a", res)
		}
	})
}

// img is a w×h PNG of one colour, with pixel (0,0) set to dot.
func img(t *testing.T, w, h int, fill, dot color.NRGBA) []byte {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			m.SetNRGBA(x, y, fill)
		}
	}
	m.SetNRGBA(0, 0, dot)
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestCompare(t *testing.T) {
	white, black := color.NRGBA{255, 255, 255, 255}, color.NRGBA{0, 0, 0, 255}
	for _, tc := range []struct {
		name string
		a, b []byte
		want int
	}{
		{"same", img(t, 4, 3, white, white), img(t, 4, 3, white, white), 0},
		{"one pixel", img(t, 4, 3, white, white), img(t, 4, 3, white, black), 1},
		{"all", img(t, 4, 3, white, white), img(t, 4, 3, black, black), 12},
		{"size", img(t, 4, 3, white, white), img(t, 5, 3, white, white), 15},
		{"transparent", img(t, 2, 2, color.NRGBA{1, 2, 3, 0}, color.NRGBA{1, 2, 3, 0}), img(t, 2, 2, color.NRGBA{9, 9, 9, 0}, color.NRGBA{9, 9, 9, 0}), 0},
	} {
		got, err := Compare(tc.a, tc.b)
		if err != nil || got != tc.want {
			t.Errorf("%s: got %d, %v; want %d", tc.name, got, err, tc.want)
		}
	}
	if _, err := Compare([]byte("not a png"), img(t, 1, 1, white, white)); err == nil || !strings.HasPrefix(err.Error(), "before:") {
		t.Errorf("not a PNG: got %v", err)
	}
}

// TestSnapshotStates: rendered before and after (PNGs the test makes),
// changed and removed snapshots hold the gate (fail) until approved by
// a comment; unchanged, added and approved lift it.
func TestSnapshotStates(t *testing.T) {
	white, red := color.NRGBA{255, 255, 255, 255}, color.NRGBA{255, 0, 0, 255}
	book := "import 'package:widgetbook_annotation/widgetbook_annotation.dart' as widgetbook;\n\n@widgetbook.UseCase(name: 'Default', type: BuyButton)\nWidget a(BuildContext c) => const BuyButton();\n"
	r, review := flutterRepo(t, map[string]string{"widgetbook/pubspec.yaml": pubspecBook, "widgetbook/lib/buy.dart": book})
	before := map[string][]byte{"BuyButton/Default": img(t, 8, 4, white, white), "BuyButton/Old": img(t, 8, 4, white, white), "BuyButton/Same": img(t, 2, 2, red, red)}
	after := map[string][]byte{"BuyButton/Default": img(t, 8, 4, white, red), "BuyButton/New": img(t, 8, 4, white, white), "BuyButton/Same": img(t, 2, 2, red, red)}
	opts := Options{LookPath: anSDK, Renderer: renderer(func(side string) (map[string][]byte, error) {
		if side == "base" {
			return before, nil
		}
		return after, nil
	})}
	res := evaluate(t, r.Root, review, opts)
	if got, want := res.Axis().Words(), "visual: fail (1 changed, 1 removed, 1 added, 1 unchanged: approve them (visual: approved — <snapshot>) or fix)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	approve := func(name string) string {
		return `{"id": "v` + name[len(name)-1:] + `", "path": "lib/buy_button.dart", "side": "RIGHT", "start_line": 7, "body": "visual: approved — ` + name + `\nThe new label is wanted."}`
	}
	approved := strings.Replace(string(review), `"comments": []`, `"comments": [`+approve("BuyButton/Default")+`, `+approve("BuyButton/Old")+`]`, 1)
	res = evaluate(t, r.Root, []byte(approved), opts)
	if got, want := res.Axis().Words(), "visual: warn (2 approved, 1 added, 1 unchanged)"; got != want {
		t.Errorf("approved: got %q, want %q", got, want)
	}
}
