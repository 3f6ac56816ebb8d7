package fileuri

import (
	"runtime"
	"testing"
)

func TestToPath(t *testing.T) {
	tests := []struct {
		uri     string
		windows bool
		want    string
	}{
		// What Windows clients send for the same file.
		{"file:///c%3A/Users/Ann/repo/pr.review.json", true, `C:\Users\Ann\repo\pr.review.json`},
		{"file:///C:/Users/Ann/repo/pr.review.json", true, `C:\Users\Ann\repo\pr.review.json`},
		{"file:///c:/Users/Ann/repo/pr.review.json", true, `C:\Users\Ann\repo\pr.review.json`},
		{"FILE:///C%3a/Users/Ann/repo/pr.review.json", true, `C:\Users\Ann\repo\pr.review.json`},
		{"file://localhost/C:/Users/Ann/x", true, `C:\Users\Ann\x`},
		{"file://C:/Users/Ann/x", true, `C:\Users\Ann\x`},
		{"file:/C:/x", true, `C:\x`},
		{"file:///d%3A", true, `D:\`},
		{"file:///C:/Users/Ann%20Lee/caf%C3%A9.review.json", true, `C:\Users\Ann Lee\café.review.json`},
		{"file:///C:/repo/handler.go#L74", true, `C:\repo\handler.go`},
		// A share: UNC.
		{"file://server/share/repo/pr.review.json", true, `\\server\share\repo\pr.review.json`},
		{"file://server/share", true, `\\server\share`},
		// Unix.
		{"file:///home/ann/repo/pr.review.json", false, "/home/ann/repo/pr.review.json"},
		{"file:///home/ann/a%20b/caf%C3%A9%23.json", false, "/home/ann/a b/café#.json"},
		{"file://localhost/home/ann/x", false, "/home/ann/x"},
		{"file:/home/ann/x", false, "/home/ann/x"},
		{"file:///tmp/x#L3", false, "/tmp/x"},
	}
	for _, tt := range tests {
		got, err := toPath(tt.uri, tt.windows)
		if err != nil || got != tt.want {
			t.Errorf("toPath(%q, windows=%v): got %q, %v; want %q", tt.uri, tt.windows, got, err, tt.want)
		}
	}
}

func TestToPathRefuses(t *testing.T) {
	for _, tt := range []struct {
		uri     string
		windows bool
	}{
		{"untitled:Untitled-1", false},
		{"https://example.com/x", true},
		{"file://server/share/x", false},
		{"file:///a%zzb", false},
		{"file:relative/x", false},
		{"", false},
	} {
		if got, err := toPath(tt.uri, tt.windows); err == nil {
			t.Errorf("toPath(%q, windows=%v): got %q, want an error", tt.uri, tt.windows, got)
		}
	}
}

func TestFromPath(t *testing.T) {
	tests := []struct {
		path    string
		windows bool
		want    string
	}{
		{`C:\Users\Ann\repo\pr.review.json`, true, "file:///C:/Users/Ann/repo/pr.review.json"},
		{`c:\Users\Ann\repo`, true, "file:///C:/Users/Ann/repo"},
		// A review's path with backslashes joined to its root.
		{`C:\repo` + `\` + `internal\api\handler.go`, true, "file:///C:/repo/internal/api/handler.go"},
		{`C:/repo/internal\api/handler.go`, true, "file:///C:/repo/internal/api/handler.go"},
		{`C:\Users\Ann Lee\café#1.go`, true, "file:///C:/Users/Ann%20Lee/caf%C3%A9%231.go"},
		{`\\server\share\repo\pr.review.json`, true, "file://server/share/repo/pr.review.json"},
		{"/home/ann/repo/pr.review.json", false, "file:///home/ann/repo/pr.review.json"},
		{"/home/ann/a b/100%.go", false, "file:///home/ann/a%20b/100%25.go"},
		// On Unix a backslash is a character of the name.
		{`/home/ann/a\b`, false, "file:///home/ann/a%5Cb"},
	}
	for _, tt := range tests {
		if got := fromPath(tt.path, tt.windows); got != tt.want {
			t.Errorf("fromPath(%q, windows=%v): got %q, want %q", tt.path, tt.windows, got, tt.want)
		}
	}
}

// TestRoundTrip: a path made a URI and read back is the same path, and
// every form a Windows client writes of one folder gives one path.
func TestRoundTrip(t *testing.T) {
	for _, tt := range []struct {
		path    string
		windows bool
	}{
		{`C:\Users\Ann Lee\repo\x.review.json`, true},
		{`\\server\share\a b\x.go`, true},
		{`D:\`, true},
		{"/home/ann/a b/caf\u00e9/%41.go", false},
		{`/home/ann/a\b`, false},
	} {
		u := fromPath(tt.path, tt.windows)
		got, err := toPath(u, tt.windows)
		if err != nil || got != tt.path {
			t.Errorf("toPath(fromPath(%q)) = %q (via %q), %v; want the path back", tt.path, got, u, err)
		}
	}
	forms := []string{"file:///c%3A/Users/Ann", "file:///C%3A/Users/Ann", "file:///c:/Users/Ann", "file:///C:/Users/Ann"}
	for _, f := range forms {
		if got, _ := toPath(f, true); got != `C:\Users\Ann` {
			t.Errorf("toPath(%q): got %q, want C:\\Users\\Ann like every other form", f, got)
		}
	}
}

func TestRunningSystem(t *testing.T) {
	path := "/tmp/a b"
	if runtime.GOOS == "windows" {
		path = `C:\tmp\a b`
	}
	got, err := ToPath(FromPath(path))
	if err != nil || got != path {
		t.Errorf("ToPath(FromPath(%q)): got %q, %v", path, got, err)
	}
}
