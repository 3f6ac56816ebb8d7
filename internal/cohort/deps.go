package cohort

import (
	"cmp"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// DepChange is one dependency a manifest's change adds, removes or moves.
type DepChange struct {
	Manifest  string `json:"manifest"`
	Ecosystem string `json:"ecosystem"` // go, npm, pypi, cargo
	Name      string `json:"name"`
	Change    string `json:"change"` // added, removed, upgraded, downgraded, changed
	Old       string `json:"old,omitempty"`
	New       string `json:"new,omitempty"`
	Major     bool   `json:"major,omitempty"`
	// Line is the line in the manifest (new side; old side for a removal)
	// and PatchLine the patch line index that says it.
	Line      int `json:"line"`
	PatchLine int `json:"-"`
}

// Message is the change in words, as a diagnostic or the CLI says it.
func (d DepChange) Message() string {
	switch d.Change {
	case "added":
		return "dependency added: " + d.Name + " " + d.New
	case "removed":
		return "dependency removed: " + d.Name + " " + d.Old
	}
	s := "dependency " + d.Change + ": " + d.Name + " " + d.Old + " → " + d.New
	if d.Major {
		s += " (major version change)"
	}
	return s
}

// isManifest reports whether the shape reads p's dependencies.
func isManifest(p string) bool { return manifestKind(p) != "" }

func manifestKind(p string) string {
	base := path.Base(p)
	switch {
	case base == "go.mod":
		return "go"
	case base == "package.json", base == "package-lock.json":
		return "npm"
	case base == "pyproject.toml", strings.HasPrefix(base, "requirements") && strings.HasSuffix(base, ".txt"):
		return "pypi"
	case base == "Cargo.toml":
		return "cargo"
	}
	return ""
}

type depSide struct {
	ver      string
	line, at int
	seen     bool
}

// Dependencies reads the dependency changes of the manifests among files,
// from their changed lines; treeLines (may be nil) gives the section a
// hunk starts in.
func Dependencies(files []ChangedFile, treeLines func(string) []string) []DepChange {
	out := []DepChange{}
	for _, f := range files {
		eco := manifestKind(f.Path)
		if eco == "" {
			continue
		}
		type pair struct{ old, new depSide }
		found := map[string]*pair{}
		var order []string
		r := newManifestReader(f.Path, treeLines)
		for _, l := range f.Lines {
			r.at(l)
			name, ver, ok := r.dep(l.Text)
			if !ok || l.Kind == ' ' {
				continue
			}
			p := found[name]
			if p == nil {
				p = &pair{}
				found[name] = p
				order = append(order, name)
			}
			if l.Kind == '-' {
				p.old = depSide{ver: ver, line: l.Old, at: l.PatchLine, seen: true}
			} else {
				p.new = depSide{ver: ver, line: l.New, at: l.PatchLine, seen: true}
			}
		}
		for _, name := range order {
			p := found[name]
			d := DepChange{Manifest: f.Path, Ecosystem: eco, Name: name, Old: p.old.ver, New: p.new.ver}
			switch {
			case p.old.seen && !p.new.seen:
				d.Change, d.Line, d.PatchLine = "removed", p.old.line, p.old.at
			case p.new.seen && !p.old.seen:
				d.Change, d.Line, d.PatchLine = "added", p.new.line, p.new.at
			case p.old.ver == p.new.ver:
				continue // a line moved or reformatted
			default:
				d.Line, d.PatchLine = p.new.line, p.new.at
				c, major := compareVersions(p.old.ver, p.new.ver)
				d.Change, d.Major = "changed", major
				if c < 0 {
					d.Change = "upgraded"
				} else if c > 0 {
					d.Change = "downgraded"
				}
			}
			out = append(out, d)
		}
	}
	slices.SortStableFunc(out, func(a, b DepChange) int {
		return cmp.Or(cmp.Compare(a.Manifest, b.Manifest), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Name, b.Name))
	})
	return out
}

// manifestReader follows the section of a manifest the diff's lines are
// in: a TOML table, a package.json dependencies object, a lock file's
// package.
type manifestReader struct {
	base    string
	section string // TOML table, JSON object key, lock package
	inArray bool   // pyproject's dependencies = [ ... ]
	tree    []string
}

func newManifestReader(p string, treeLines func(string) []string) *manifestReader {
	r := &manifestReader{base: path.Base(p)}
	if treeLines != nil {
		r.tree = treeLines(p)
	}
	return r
}

// at moves to line l; a hunk's first line learns its section from the
// tree's lines above the hunk.
func (r *manifestReader) at(l Line) {
	if l.HunkStart > 0 {
		r.section, r.inArray = "", false
		for i := 0; i < l.HunkStart-1 && i < len(r.tree); i++ {
			r.follow(r.tree[i])
		}
	}
	r.follow(l.Text)
}

var (
	tomlTable   = regexp.MustCompile(`^\s*\[+\s*([^\]]+?)\s*\]+\s*(#.*)?$`)
	jsonObjKey  = regexp.MustCompile(`^\s*"([^"]+)"\s*:\s*\{`)
	jsonPair    = regexp.MustCompile(`^\s*"([^"]+)"\s*:\s*"([^"]*)"`)
	tomlPair    = regexp.MustCompile(`^\s*([A-Za-z0-9_.\-]+)\s*=\s*(.+?)\s*(#.*)?$`)
	tomlVersion = regexp.MustCompile(`version\s*=\s*"([^"]*)"`)
	pep508      = regexp.MustCompile(`^\s*([A-Za-z0-9][A-Za-z0-9._\-]*)\s*(\[[^\]]*\])?\s*(\(?\s*(===|==|~=|!=|>=|<=|>|<)\s*([^;,\s)]+))?`)
	goRequire   = regexp.MustCompile(`^\s*(?:require\s+)?([^\s(]+\.[^\s(]+/[^\s]*|[a-z0-9.\-]+\.[a-z]+/\S+)\s+(v[0-9][^\s]*)`)
)

// follow updates the section from one line of the manifest.
func (r *manifestReader) follow(t string) {
	switch r.base {
	case "package.json":
		if m := jsonObjKey.FindStringSubmatch(t); m != nil {
			r.section = m[1]
		} else if strings.HasPrefix(strings.TrimSpace(t), "}") {
			r.section = ""
		}
	case "package-lock.json":
		if m := jsonObjKey.FindStringSubmatch(t); m != nil {
			r.section = m[1]
		}
	case "Cargo.toml", "pyproject.toml":
		if m := tomlTable.FindStringSubmatch(t); m != nil {
			r.section, r.inArray = m[1], false
		} else if r.base == "pyproject.toml" {
			tt := strings.TrimSpace(t)
			if strings.HasPrefix(tt, "dependencies") && strings.Contains(tt, "[") && !strings.Contains(tt, "]") ||
				r.section == "project.optional-dependencies" && strings.HasSuffix(tt, "[") {
				r.inArray = true
			} else if strings.HasPrefix(tt, "]") {
				r.inArray = false
			}
		}
	}
}

// dep reads a dependency and its version from one line in the current
// section.
func (r *manifestReader) dep(t string) (name, ver string, ok bool) {
	tt := strings.TrimSpace(t)
	switch {
	case r.base == "go.mod":
		if strings.Contains(tt, "=>") || strings.HasPrefix(tt, "//") || strings.HasPrefix(tt, "module") || strings.HasPrefix(tt, "replace") || strings.HasPrefix(tt, "exclude") || strings.HasPrefix(tt, "retract") {
			return "", "", false
		}
		if m := goRequire.FindStringSubmatch(tt); m != nil {
			return m[1], m[2], true
		}
	case r.base == "package.json":
		if strings.HasSuffix(strings.ToLower(r.section), "dependencies") {
			if m := jsonPair.FindStringSubmatch(tt); m != nil {
				return m[1], m[2], true
			}
		}
	case r.base == "package-lock.json":
		if i := strings.LastIndex(r.section, "node_modules/"); i >= 0 {
			if m := jsonPair.FindStringSubmatch(tt); m != nil && m[1] == "version" {
				return r.section[i+len("node_modules/"):], m[2], true
			}
		}
	case strings.HasPrefix(r.base, "requirements"):
		if tt == "" || tt[0] == '#' || tt[0] == '-' {
			return "", "", false
		}
		if m := pep508.FindStringSubmatch(tt); m != nil {
			return pyName(m[1]), strings.TrimSpace(m[4] + m[5]), true
		}
	case r.base == "pyproject.toml":
		if r.inArray {
			s := strings.Trim(strings.TrimSuffix(tt, ","), `"'`)
			if m := pep508.FindStringSubmatch(s); m != nil && s != "" && !strings.HasPrefix(tt, "dependencies") {
				return pyName(m[1]), strings.TrimSpace(m[4] + m[5]), true
			}
			return "", "", false
		}
		if strings.HasPrefix(r.section, "tool.poetry") && strings.HasSuffix(r.section, "dependencies") {
			if m := tomlPair.FindStringSubmatch(tt); m != nil && m[1] != "python" {
				return pyName(m[1]), tomlVer(m[2]), true
			}
		}
	case r.base == "Cargo.toml":
		sec := r.section
		if strings.HasSuffix(sec, "dependencies") {
			if m := tomlPair.FindStringSubmatch(tt); m != nil {
				return m[1], tomlVer(m[2]), true
			}
		}
		if i := strings.LastIndex(sec, "dependencies."); i >= 0 {
			if m := tomlPair.FindStringSubmatch(tt); m != nil && m[1] == "version" {
				return sec[i+len("dependencies."):], tomlVer(m[2]), true
			}
		}
	}
	return "", "", false
}

func tomlVer(v string) string {
	if m := tomlVersion.FindStringSubmatch(v); m != nil {
		return m[1]
	}
	return strings.Trim(v, `"' `)
}

func pyName(n string) string {
	return strings.ReplaceAll(strings.ToLower(n), "_", "-")
}

// compareVersions compares two version requirements by their numbers
// (ranges' operators and a leading v dropped): -1 when a is older, and
// whether the major version differs (for 0.x, the minor one).
func compareVersions(a, b string) (int, bool) {
	x, y := versionNumbers(a), versionNumbers(b)
	if len(x) == 0 || len(y) == 0 {
		return 0, false
	}
	major := x[0] != y[0] || x[0] == 0 && len(x) > 1 && len(y) > 1 && x[1] != y[1]
	return slices.Compare(x, y), major
}

func versionNumbers(v string) []int {
	v = strings.TrimLeft(v, "^~>=<! v")
	var out []int
	for _, part := range strings.Split(v, ".") {
		end := 0
		for end < len(part) && part[end] >= '0' && part[end] <= '9' {
			end++
		}
		if end == 0 {
			break
		}
		n, _ := strconv.Atoi(part[:end])
		out = append(out, n)
		if end < len(part) {
			break
		}
	}
	return out
}
