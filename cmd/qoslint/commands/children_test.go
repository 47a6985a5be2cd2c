package commands

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// procs starts qoslint processes (the test binary as qoslint, TestMain)
// in dir with env, for the commands that dial or run until stopped.
type procs struct {
	t   *testing.T
	dir string
	env []string
}

func (p procs) start(args ...string) *child {
	p.t.Helper()
	c := &child{cmd: exec.Command(os.Args[0], args...), stdout: &syncBuffer{}, stderr: &syncBuffer{}, done: make(chan struct{})}
	c.cmd.Dir, c.cmd.Env, c.cmd.Stdout, c.cmd.Stderr = p.dir, p.env, c.stdout, c.stderr
	if err := c.cmd.Start(); err != nil {
		p.t.Fatal(err)
	}
	go func() {
		defer close(c.done)
		err := c.cmd.Wait()
		if ee, ok := err.(*exec.ExitError); ok {
			c.code = ee.ExitCode()
		} else if err != nil {
			c.code = -1
		}
	}()
	return c
}

// wait is c's exit code; a child still running after 3 minutes is killed.
func (p procs) wait(c *child) int {
	select {
	case <-c.done:
	case <-time.After(3 * time.Minute):
		_ = c.cmd.Process.Kill()
		<-c.done
		p.t.Errorf("%v: still running after 3 minutes", c.cmd.Args[1:])
	}
	return c.code
}

// until waits for a long-running child to print want (it is ready).
func (p procs) until(c *child, want string) bool {
	p.t.Helper()
	deadline := time.After(60 * time.Second)
	for !strings.Contains(c.stdout.String()+c.stderr.String(), want) {
		select {
		case <-c.done:
			p.t.Errorf("%v: exit %d before it printed %q\nstdout: %s\nstderr: %s", c.cmd.Args[1:], c.code, want, c.stdout, c.stderr)
			return false
		case <-deadline:
			p.t.Errorf("%v: never printed %q\nstdout: %s\nstderr: %s", c.cmd.Args[1:], want, c.stdout, c.stderr)
			return false
		case <-time.After(20 * time.Millisecond):
		}
	}
	return true
}

// interrupt stops c as Ctrl-C would and returns its exit code.
func (p procs) interrupt(c *child) int {
	p.t.Helper()
	_ = c.cmd.Process.Signal(syscall.SIGINT)
	return p.wait(c)
}
