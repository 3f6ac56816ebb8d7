//go:build unix

package visual

import (
	"os/exec"
	"syscall"
)

// group runs cmd in a process group of its own, killed whole when its
// context ends: flutter test leaves a Dart VM and a test shell behind.
func group(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
