package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestBuildVersion(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "0123456789abcdef0123456789abcdef01234567"
	tests := []struct {
		name    string
		release string
		info    *debug.BuildInfo
		want    string
	}{
		{"release from the tag", "v0.2.0", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "0.2.0"},
		{"release without v", "0.2.0-SNAPSHOT-abc1234", nil, "0.2.0-SNAPSHOT-abc1234"},
		{"go install of a tag", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.2.0"}}, "0.2.0"},
		{"pseudo-version stamped from the clone", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.2.1-0.20261205083000-0123456789ab+dirty"}, Settings: vcs(rev, "true")}, "0.2.1-0.20261205083000-0123456789ab+dirty"},
		{"commit only", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "false")}, "devel 0123456789ab"},
		{"modified tree", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "true")}, "devel 0123456789ab-dirty"},
		{"no VCS stamp", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel"},
		{"no build info", "", nil, "devel"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := buildVersion(tt.release, tt.info); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestVersionLineNamesTheCommitOnce(t *testing.T) {
	info := &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.modified", Value: "true"}}}
	if got := versionLine("0.2.0", info); !strings.HasPrefix(got, "0.2.0 (commit 0123456789ab-dirty, go") {
		t.Errorf("got %q, want the version, then the commit", got)
	}
	if got := versionLine("devel 0123456789ab-dirty", info); strings.Contains(got, "commit") {
		t.Errorf("got %q, want the commit said once", got)
	}
}

// TestSarifVersionStartsWithANumber: SARIF's tool version is the
// release, else 0.0.0-devel with the commit as build metadata.
func TestSarifVersionStartsWithANumber(t *testing.T) {
	for v, want := range map[string]string{
		"0.2.0": "0.2.0",
		"0.2.1-0.20261205083000-0123456789ab+dirty": "0.2.1-0.20261205083000-0123456789ab+dirty",
		"devel":                    "0.0.0-devel",
		"devel 0123456789ab":       "0.0.0-devel+0123456789ab",
		"devel 0123456789ab-dirty": "0.0.0-devel+0123456789ab-dirty",
	} {
		if got := sarifVersion(v); got != want {
			t.Errorf("sarifVersion(%q): got %q, want %q", v, got, want)
		}
	}
}

// TestVersionReportedEverywhere builds the command as `make dist` does,
// with a release version, and asks it as each client would: `version`,
// the language server's initialize (serverInfo) and the MCP server's
// initialize (its implementation).
func TestVersionReportedEverywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	const release = "9.8.7-test"
	bin := filepath.Join(t.TempDir(), "lreview-lsp")
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-X main.releaseVersion=v"+release, "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := string(out); !strings.HasPrefix(got, "lreview-lsp "+release+" (") {
		t.Errorf("version: got %q, want lreview-lsp %s (…)", got, release)
	}

	if got := lspServerInfo(t, bin); got != release {
		t.Errorf("initialize: serverInfo.version %q, want %q", got, release)
	}

	cmd := exec.Command(bin, "mcp", "--root", t.TempDir())
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "version-test", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got := cs.InitializeResult().ServerInfo; got == nil || got.Version != release {
		t.Errorf("MCP initialize: server info %+v, want version %q", got, release)
	}
}

// lspServerInfo sends initialize to the server bin over stdio and returns
// the serverInfo's version.
func lspServerInfo(t *testing.T, bin string) string {
	t.Helper()
	cmd := exec.Command(bin, "--stdio")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Wait() }()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`
	fmt.Fprintf(stdin, "Content-Length: %d\r\n\r\n%s", len(body), body)
	r := bufio.NewReader(stdout)
	length := 0
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the reply's header: %v", err)
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			length, _ = strconv.Atoi(v)
		}
	}
	reply := make([]byte, length)
	if _, err := io.ReadFull(r, reply); err != nil {
		t.Fatal(err)
	}
	var msg struct {
		Result struct {
			ServerInfo struct{ Name, Version string } `json:"serverInfo"`
		} `json:"result"`
	}
	if err := json.Unmarshal(reply, &msg); err != nil {
		t.Fatalf("initialize reply %s: %v", reply, err)
	}
	return msg.Result.ServerInfo.Version
}
