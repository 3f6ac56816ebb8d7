// Command dist builds the release into a folder (dist/ for `make dist`):
// lreview-lsp for Linux, macOS and Windows on amd64 and arm64, an archive
// each (.tar.gz; .zip for Windows) holding the binary, LICENSE, README.md,
// CHANGELOG.md and the editors' files the install table names
// (editors.go), and checksums.txt (SHA-256). It also writes
// artifacts.json (the binaries, for the VS Code packages) and
// metadata.json (the version).
//
// The same commit gives the same bytes: -trimpath, no build time (the
// archives date every file at the commit's time), fixed modes and owners,
// a fixed order. The version is the git tag's when HEAD is tagged (v0.2.0
// → 0.2.0), else what `git describe` says past the last tag, else
// 0.0.0-g<commit>; -dirty when the tree has changes.
//
//	go run ./internal/dist [-out dist] [-version V]
//
// It is a plain loop over `go build` rather than GoReleaser: GoReleaser
// takes longer to compile on a two-core machine than CI has for the whole
// run.
package main

import (
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// platforms are the systems a release is built for.
var platforms = []struct{ goos, goarch string }{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

// artifact is one entry of artifacts.json, in GoReleaser's shape.
type artifact struct {
	Name   string `json:"name"`
	Path   string `json:"path"`
	GOOS   string `json:"goos"`
	GOARCH string `json:"goarch"`
	Type   string `json:"type"`
}

func main() {
	out := flag.String("out", "dist", "the folder to write, emptied first")
	version := flag.String("version", "", "the version (default: from git)")
	flag.Parse()
	if err := run(*out, *version); err != nil {
		fmt.Fprintln(os.Stderr, "dist:", err)
		os.Exit(1)
	}
}

func run(out, version string) error {
	if version == "" {
		version = gitVersion()
	}
	mtime := commitTime()
	var docs []member
	for _, name := range []string{"LICENSE", "README.md", "CHANGELOG.md"} {
		data, err := os.ReadFile(name)
		if err != nil {
			return fmt.Errorf("%s: %w (run from the repository's root)", name, err)
		}
		docs = append(docs, member{name: name, data: data})
	}
	editors, err := editorMembers(".")
	if err != nil {
		return fmt.Errorf("the editors' files: %w (run from the repository's root)", err)
	}
	docs = append(docs, editors...)
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	var sums strings.Builder
	var artifacts []artifact
	for _, p := range platforms {
		start := time.Now()
		bin := "lreview-lsp"
		if p.goos == "windows" {
			bin += ".exe"
		}
		binPath := filepath.Join(out, fmt.Sprintf("lreview-lsp_%s_%s", p.goos, p.goarch), bin)
		if err := build(binPath, p.goos, p.goarch, version); err != nil {
			return err
		}
		data, err := os.ReadFile(binPath)
		if err != nil {
			return err
		}
		artifacts = append(artifacts, artifact{Name: bin, Path: binPath, GOOS: p.goos, GOARCH: p.goarch, Type: "Binary"})
		dir := fmt.Sprintf("lreview-lsp_%s_%s_%s", version, p.goos, p.goarch)
		members := append([]member{{name: bin, data: data, exec: true}}, docs...)
		archive := filepath.Join(out, dir+".tar.gz")
		if p.goos == "windows" {
			archive = filepath.Join(out, dir+".zip")
			err = writeZip(archive, dir, members, mtime)
		} else {
			err = writeTarGz(archive, dir, members, mtime)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", archive, err)
		}
		sum, err := fileSum(archive)
		if err != nil {
			return err
		}
		fmt.Fprintf(&sums, "%x  %s\n", sum, filepath.Base(archive))
		artifacts = append(artifacts, artifact{Name: filepath.Base(archive), Path: archive, GOOS: p.goos, GOARCH: p.goarch, Type: "Archive"})
		fmt.Printf("dist: %s (%.1f s)\n", archive, time.Since(start).Seconds())
	}
	if err := os.WriteFile(filepath.Join(out, "checksums.txt"), []byte(sums.String()), 0o644); err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(out, "artifacts.json"), artifacts); err != nil {
		return err
	}
	return writeJSON(filepath.Join(out, "metadata.json"), map[string]string{"project_name": "lreview-lsp", "version": version})
}

// build builds the command for one platform, as reproducibly as Go can:
// no cgo, no paths of this machine, the version given, the commit stamped
// when the source is a git clone (-buildvcs=auto, whatever GOFLAGS says).
func build(path, goos, goarch, version string) error {
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=auto",
		"-ldflags", "-s -w -X main.releaseVersion="+version, "-o", path, "./cmd/lreview-lsp")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build for %s/%s: %w", goos, goarch, err)
	}
	return nil
}

// gitVersion is the version of HEAD from its tags: 0.2.0 on the tag v0.2.0,
// 0.2.0-3-gabc1234 past it, 0.0.0-gabc1234 with no tag; -dirty when the
// working tree has changes git tracks or would.
func gitVersion() string {
	if v, err := git("describe", "--tags", "--match", "v[0-9]*", "--dirty"); err == nil {
		return strings.TrimPrefix(v, "v")
	}
	commit, err := git("rev-parse", "--short=12", "HEAD")
	if err != nil {
		return "0.0.0-unknown"
	}
	v := "0.0.0-g" + commit
	if status, err := git("status", "--porcelain"); err == nil && status != "" {
		v += "-dirty"
	}
	return v
}

// commitTime is HEAD's commit time, the date of every archived file; the
// Unix epoch outside a clone.
func commitTime() time.Time {
	if s, err := git("log", "-1", "--format=%ct"); err == nil {
		if secs, err := strconv.ParseInt(s, 10, 64); err == nil {
			return time.Unix(secs, 0).UTC()
		}
	}
	return time.Unix(0, 0).UTC()
}

func git(args ...string) (string, error) {
	out, err := exec.Command("git", args...).Output()
	return strings.TrimSpace(string(out)), err
}

func fileSum(path string) ([sha256.Size]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return [sha256.Size]byte{}, err
	}
	return sha256.Sum256(data), nil
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}
