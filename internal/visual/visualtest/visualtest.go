// Package visualtest is a fake flutter command for the tests of the
// visual axis on hosts without a Flutter SDK: the test binary itself,
// run again under the name "flutter" (Install links it onto PATH, and a
// TestMain calls Main first). Its `flutter test` reads the generated
// test as the real one would compile it — each import and each use-case
// function it pumps — and writes each golden image in one colour: the
// first Color(0x…) literal of the use-case function, else of the class
// the function builds. A change of a widget's colour in a test
// repository is thus a changed image, exactly.
package visualtest

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leanreview/lreview-lsp/internal/branch/branchtest"
)

// The environment the fake reads: Fail makes it fail as a compilation
// error would, Sleep makes it hang that long (a duration), Log names a
// file it appends each run's arguments to.
const (
	EnvFail  = "LREVIEW_FAKE_FLUTTER_FAIL"
	EnvSleep = "LREVIEW_FAKE_FLUTTER_SLEEP"
	EnvLog   = "LREVIEW_FAKE_FLUTTER_LOG"
)

// colourButton is BuyButton painted in colour (0xAARRGGBB).
func colourButton(colour string) string {
	return "import 'package:flutter/widgets.dart';\n\nclass BuyButton extends StatelessWidget {\n  const BuyButton({super.key});\n\n  @override\n  Widget build(BuildContext context) => const ColoredBox(color: Color(0x" + colour + "));\n}\n"
}

func useCase(name, fn, body string) string {
	return "@widgetbook.UseCase(name: '" + name + "', type: BuyButton)\nWidget " + fn + "(BuildContext context) => " + body + ";\n\n"
}

const bookHeader = "import 'package:flutter/widgets.dart';\nimport 'package:shop/buy_button.dart';\nimport 'package:widgetbook_annotation/widgetbook_annotation.dart' as widgetbook;\n\n"

// GoldenRepo is a Flutter app with a Widgetbook app whose review
// changes BuyButton's colour (Default: changed), keeps a use case of a
// colour of its own in a file outside the app's lib/ (Same: unchanged),
// removes one (Old: removed) and adds one (New: added).
// It returns the repository, the base commit and the review of the
// diff from it to HEAD (the working tree).
func GoldenRepo(t *testing.T) (*branchtest.Repo, string, []byte) {
	return GoldenRepoIn(t, t.TempDir())
}

// GoldenRepoIn is GoldenRepo in the directory dir.
func GoldenRepoIn(t *testing.T, dir string) (*branchtest.Repo, string, []byte) {
	r := branchtest.NewRepoAt(t, dir)
	r.Commit("base", map[string]string{
		"pubspec.yaml":                   appPubspec,
		"lib/buy_button.dart":            colourButton("FFFF0000"),
		"widgetbook/pubspec.yaml":        bookPubspec,
		"widgetbook/lib/main.dart":       bookHeader + useCase("Default", "buyDefault", "const BuyButton()") + useCase("Old", "buyOld", "const ColoredBox(color: Color(0xFF00FF00))"),
		"widgetbook/use_cases/same.dart": bookHeader + useCase("Same", "buySame", "const ColoredBox(color: Color(0xFF0000FF))"),
	})
	base := strings.TrimSpace(r.Git("rev-parse", "HEAD"))
	r.Commit("green", map[string]string{
		"lib/buy_button.dart":      colourButton("FF00FF00"),
		"widgetbook/lib/main.dart": bookHeader + useCase("Default", "buyDefault", "const BuyButton()") + useCase("New", "buyNew", "const ColoredBox(color: Color(0xFFFFFF00))"),
	})
	return r, base, r.Review(base, "HEAD")
}

const (
	appPubspec  = "name: shop\ndependencies:\n  flutter:\n    sdk: flutter\n"
	bookPubspec = "name: shop_widgetbook\ndependencies:\n  flutter:\n    sdk: flutter\n  widgetbook: ^3.0.0\n  widgetbook_annotation: ^3.0.0\n  shop:\n    path: ..\ndev_dependencies:\n  flutter_test:\n    sdk: flutter\n"
)

// harnessFile is visual.HarnessFile (not imported: the fake checks what
// the renderer generates, by its own reading).
const harnessFile = "test/lreview_golden/lreview_golden_test.dart"

// EnvDir is set by the flutter command Install makes: the directory
// flutter was run in. The script runs the test binary from the test's
// own directory (a test package's initialisation may read files relative
// to it), and the fake moves to EnvDir first.
const EnvDir = "LREVIEW_FAKE_FLUTTER_DIR"

// Main runs the fake and exits when the binary was run as flutter; a
// TestMain calls it before m.Run.
func Main() {
	dir := os.Getenv(EnvDir)
	if dir == "" {
		return
	}
	if err := os.Chdir(dir); err != nil {
		fmt.Fprintln(os.Stderr, "fake flutter:", err)
		os.Exit(70)
	}
	os.Exit(run(os.Args[1:]))
}

// Install puts a flutter command, a script running this test binary,
// first on PATH for the test, and returns the log file its runs are
// written to.
func Install(t *testing.T) (log string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	script := "#!/bin/sh\n" + EnvDir + "=$(pwd)\nexport " + EnvDir + "\ncd " + quote(wd) + " || exit 70\nexec " + quote(exe) + ` "$@"` + "\n"
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "flutter"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	log = filepath.Join(t.TempDir(), "flutter.log")
	t.Setenv(EnvLog, log)
	return log
}

// Runs are the runs the log holds, one line each: the arguments.
func Runs(t *testing.T, log string) []string {
	data, err := os.ReadFile(log)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

func run(args []string) int {
	if log := os.Getenv(EnvLog); log != "" {
		f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(f, strings.Join(args, " "))
			f.Close()
		}
	}
	if d, err := time.ParseDuration(os.Getenv(EnvSleep)); err == nil {
		time.Sleep(d)
	}
	if os.Getenv(EnvFail) != "" {
		fmt.Fprintln(os.Stderr, "lib/main.dart:3:1: Error: Compilation failed (fake flutter)")
		return 1
	}
	if _, err := os.Stat("pubspec.yaml"); err != nil {
		fmt.Fprintln(os.Stderr, "fake flutter: no pubspec.yaml in the working directory")
		return 1
	}
	switch {
	case slices.Equal(args, []string{"pub", "get", "--offline"}):
		return 0
	case len(args) == 4 && args[0] == "test" && args[1] == "--no-pub" && args[2] == "--update-goldens" && args[3] == harnessFile:
		if err := goldens(); err != nil {
			fmt.Fprintln(os.Stderr, "fake flutter test:", err)
			return 1
		}
		return 0
	}
	fmt.Fprintf(os.Stderr, "fake flutter: unexpected arguments %q\n", args)
	return 64
}

var (
	importRe = regexp.MustCompile(`(?m)^import '([^']+)' as (uc\d+);$`)
	pumpRe   = regexp.MustCompile(`RepaintBoundary\(key: key, child: Builder\(builder: (uc\d+)\.(\w+)\)\)\)\);\s*await expectLater\(find\.byKey\(key\), matchesGoldenFile\('(goldens/\d+\.png)'\)\);`)
	colorRe  = regexp.MustCompile(`Color\(0x([0-9A-Fa-f]{8})\)`)
	buildsRe = regexp.MustCompile(`=>\s*(?:const\s+)?([A-Z]\w*)\(`)
	nameRe   = regexp.MustCompile(`(?m)^name:\s*(\w+)`)
)

// goldens writes the golden image of each use case the generated test
// pumps.
func goldens() error {
	test, err := os.ReadFile(harnessFile)
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(test, []byte("// Generated by lreview-lsp")) {
		return fmt.Errorf("%s is not the generated test", harnessFile)
	}
	pubspec, _ := os.ReadFile("pubspec.yaml")
	pkg := ""
	if m := nameRe.FindSubmatch(pubspec); m != nil {
		pkg = string(m[1])
	}
	files := map[string]string{}
	for _, m := range importRe.FindAllStringSubmatch(string(test), -1) {
		uri, file := m[1], ""
		if rest, ok := strings.CutPrefix(uri, "package:"+pkg+"/"); ok {
			file = filepath.Join("lib", rest)
		} else if strings.HasPrefix(uri, "package:") {
			return fmt.Errorf("import %s: not this package's", uri)
		} else {
			file = filepath.Join(filepath.Dir(harnessFile), uri)
		}
		files[m[2]] = file
	}
	pumps := pumpRe.FindAllStringSubmatch(string(test), -1)
	if len(pumps) == 0 {
		return fmt.Errorf("the generated test pumps nothing")
	}
	for _, m := range pumps {
		file, ok := files[m[1]]
		if !ok {
			return fmt.Errorf("%s is not imported", m[1])
		}
		c, err := colourOf(file, m[2])
		if err != nil {
			return err
		}
		out := filepath.Join(filepath.Dir(harnessFile), m[3])
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(out, pngOf(c), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// colourOf is the colour of the use-case function fn of file.
func colourOf(file, fn string) (color.NRGBA, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return color.NRGBA{}, err
	}
	text := string(data)
	i := strings.Index(text, "Widget "+fn+"(")
	if i < 0 {
		return color.NRGBA{}, fmt.Errorf("%s: Error: Undefined name '%s'", file, fn)
	}
	body, _, _ := strings.Cut(text[i:], ";\n")
	if m := colorRe.FindStringSubmatch(body); m != nil {
		return parse(m[1]), nil
	}
	m := buildsRe.FindStringSubmatch(body)
	if m == nil {
		return color.NRGBA{}, fmt.Errorf("%s: %s builds nothing the fake knows", file, fn)
	}
	return classColour(m[1])
}

// classColour is the first colour of the class's declaration in the
// Dart files of this package or the one above it (the app's own).
func classColour(class string) (color.NRGBA, error) {
	decl := regexp.MustCompile(`class\s+` + class + `\b`)
	for _, dir := range []string{".", ".."} {
		var found *color.NRGBA
		_ = filepath.WalkDir(filepath.Join(dir, "lib"), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".dart") || found != nil {
				return nil
			}
			data, _ := os.ReadFile(p)
			if loc := decl.FindIndex(data); loc != nil {
				if m := colorRe.FindSubmatch(data[loc[0]:]); m != nil {
					c := parse(string(m[1]))
					found = &c
				}
			}
			return nil
		})
		if found != nil {
			return *found, nil
		}
	}
	return color.NRGBA{}, fmt.Errorf("class %s: not found, or without a colour", class)
}

func parse(argb string) color.NRGBA {
	v, _ := strconv.ParseUint(argb, 16, 32)
	return color.NRGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: uint8(v >> 24)}
}

// pngOf is a 4×4 image of c.
func pngOf(c color.NRGBA) []byte {
	m := image.NewNRGBA(image.Rect(0, 0, 4, 4))
	for y := range 4 {
		for x := range 4 {
			m.SetNRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, m)
	return b.Bytes()
}
