package main

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// releaseVersion is the version `make dist` (internal/dist) built the
// binary as, set with -ldflags "-X main.releaseVersion=...": what git
// describes, 0.2.0 on the tag v0.2.0 and 0.0.0-g<commit> with no tag.
// Empty in any other build (`make build`, `go install`).
var releaseVersion string

// readBuildInfo is the module's build information, nil when the binary
// carries none.
func readBuildInfo() *debug.BuildInfo {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	return info
}

// buildVersion says what was built, without a leading "v": the release
// when the build named one; else the module version Go stamped (a tag for
// `go install …@v0.2.0`, a pseudo-version for a build in a clone with VCS
// stamping on); else the commit and whether the tree was modified
// ("devel 1a2b3c4d5e6f-dirty"); else "devel". It never says a number the
// build did not see: a binary built from a clone does not claim a release.
func buildVersion(release string, info *debug.BuildInfo) string {
	if release != "" {
		return strings.TrimPrefix(release, "v")
	}
	if info == nil {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return strings.TrimPrefix(v, "v")
	}
	revision, modified := vcsSettings(info)
	if revision == "" {
		return "devel"
	}
	if len(revision) > 12 {
		revision = revision[:12]
	}
	if modified {
		revision += "-dirty"
	}
	return "devel " + revision
}

// versionLine is what `lreview-lsp version` prints after the name: the
// version, then the commit it was built from when the version does not
// already say it, the Go release and the platform.
func versionLine(v string, info *debug.BuildInfo) string {
	var extra []string
	if info != nil {
		revision, modified := vcsSettings(info)
		if len(revision) > 12 {
			revision = revision[:12]
		}
		if revision != "" && !strings.Contains(v, revision) {
			if modified {
				revision += "-dirty"
			}
			extra = append(extra, "commit "+revision)
		}
	}
	extra = append(extra, runtime.Version(), runtime.GOOS+"/"+runtime.GOARCH)
	return v + " (" + strings.Join(extra, ", ") + ")"
}

// vcsSettings reads the commit and the dirty flag Go stamps with
// -buildvcs.
func vcsSettings(info *debug.BuildInfo) (revision string, modified bool) {
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	return revision, modified
}

// sarifVersion is v as SARIF's tool.driver.version wants it: starting
// with a number, so that versions compare (the SARIF multitool's rule
// SARIF2005). A build that knows no release says so in semantic
// versioning's words: "0.0.0-devel", with the commit as build metadata
// ("0.0.0-devel+0123456789ab-dirty").
func sarifVersion(v string) string {
	if v != "" && '0' <= v[0] && v[0] <= '9' {
		return v
	}
	rest := strings.TrimSpace(strings.TrimPrefix(v, "devel"))
	if rest == "" {
		return "0.0.0-devel"
	}
	return "0.0.0-devel+" + strings.ReplaceAll(rest, " ", ".")
}
