// Package fileuri turns file: URIs into file paths and back, the one way
// the project does it: the language server with its documents and
// workspace folders, the working tree's links and the MCP server's
// file arguments. It reads what clients send on every platform —
// Windows clients write the same folder as file:///c%3A/Users/…
// (VS Code), file:///C:/Users/… (Neovim, Helix) or, for a share,
// file://server/share/… — and writes the plain form (file:///C:/Users/…),
// so that the paths it gives compare equal whatever the client wrote.
//
// The functions for the running system call the ones that take the
// platform as an argument, which the tests run for Windows on any system.
package fileuri

import (
	"fmt"
	"net/url"
	"runtime"
	"strings"
)

// ToPath returns the path of the local file a file: URI names, in the
// running system's form; an error says why u is not one (another scheme,
// a bad escape, a host on a system without UNC paths).
func ToPath(u string) (string, error) { return toPath(u, runtime.GOOS == "windows") }

// FromPath returns the file: URI of an absolute path of the running
// system.
func FromPath(path string) string { return fromPath(path, runtime.GOOS == "windows") }

// toPath is ToPath for Windows when windows is set, else for Unix.
func toPath(u string, windows bool) (string, error) {
	if len(u) < len("file:") || !strings.EqualFold(u[:len("file:")], "file:") {
		return "", fmt.Errorf("%q is not a file: URI", u)
	}
	rest := u[len("file:"):]
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i] // a query or a fragment (#L74) names no part of the file
	}
	host := ""
	if after, ok := strings.CutPrefix(rest, "//"); ok {
		host, rest, _ = strings.Cut(after, "/")
		rest = "/" + rest
	}
	path, err := url.PathUnescape(rest)
	if err != nil {
		return "", fmt.Errorf("%q: %v", u, err)
	}
	if strings.EqualFold(host, "localhost") {
		host = ""
	}
	if !windows {
		if host != "" {
			return "", fmt.Errorf("%q names the host %q: only local files can be read", u, host)
		}
		if !strings.HasPrefix(path, "/") {
			return "", fmt.Errorf("%q names no absolute path", u)
		}
		return path, nil
	}
	// file://C:/x: a drive written where the host goes.
	if isDrive(host) {
		path, host = "/"+host+path, ""
	}
	path = strings.ReplaceAll(path, "/", `\`)
	if host != "" {
		return `\\` + host + path, nil
	}
	// \C:\x or \c:\x → C:\x: the drive letter in one case, as Windows
	// writes it, since clients differ.
	if len(path) >= 3 && path[0] == '\\' && isDrive(path[1:3]) {
		path = strings.ToUpper(path[1:2]) + ":" + path[3:]
		if len(path) == 2 {
			path += `\`
		}
	}
	return path, nil
}

// fromPath is FromPath for Windows when windows is set, else for Unix.
// On Windows both separators are taken, and a relative part written with
// backslashes (a review's path joined to its root) comes out with slashes.
func fromPath(path string, windows bool) string {
	host := ""
	if windows {
		path = strings.ReplaceAll(path, `\`, "/")
		if after, ok := strings.CutPrefix(path, "//"); ok {
			host, path, _ = strings.Cut(after, "/")
			path = "/" + path
		} else if len(path) >= 2 && isDrive(path[:2]) {
			path = "/" + strings.ToUpper(path[:1]) + path[1:]
		}
	}
	segments := strings.Split(path, "/")
	for i, s := range segments {
		segments[i] = url.PathEscape(s)
	}
	return "file://" + host + strings.Join(segments, "/")
}

// isDrive reports whether s is a drive: a letter and a colon.
func isDrive(s string) bool {
	return len(s) == 2 && s[1] == ':' && ('a' <= s[0] && s[0] <= 'z' || 'A' <= s[0] && s[0] <= 'Z')
}
