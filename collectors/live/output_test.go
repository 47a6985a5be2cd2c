package live

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
)

// feedAll feeds stream to c in pieces of size n, as the SSH channel hands
// them over.
func feedAll(c *cmdOutput, stream []byte, n int) {
	for len(stream) > 0 {
		k := min(n, len(stream))
		c.feed(stream[:k])
		stream = stream[k:]
	}
}

func finished(c *cmdOutput) bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// TestCaptureEndsAtPrompt: the capture ends where the stream ends with the
// prompt, after the echo; a stale prompt before the echo (the answer to
// scrapligo's return while it looked for the prompt) is dropped, whatever
// the piece size. (As with scrapligo's own rule, the prompt's text ending
// a piece of output mid-line would end it too: no piece size can tell the
// two apart.)
func TestCaptureEndsAtPrompt(t *testing.T) {
	cmd := "mlnx_qos -i ens1f0np0"
	body := onlcr(mlnxPFC + "# root@gpu01 is text here\n")
	stream := []byte("\r\n" + hostPrompt + " " + cmd + "\r\n" + body + hostPrompt + " ")
	for _, n := range []int{1, 3, 7, 64, len(stream)} {
		c := newCapture(DefaultMaxOutput, cmd, hostPrompt)
		feedAll(c, stream[:len(stream)-len(hostPrompt)-1], n)
		if finished(c) {
			t.Fatalf("piece %d: ended before the prompt", n)
		}
		feedAll(c, stream[len(stream)-len(hostPrompt)-1:], n)
		if !finished(c) {
			t.Fatalf("piece %d: not ended at the prompt", n)
		}
		raw, err := c.output()
		if err != nil {
			t.Fatal(err)
		}
		out, err := extractOutput(raw, cmd, hostPrompt)
		if err != nil || string(out) != mlnxPFC+"# root@gpu01 is text here\n" {
			t.Fatalf("piece %d: %q, %v", n, out, err)
		}
		c.feed([]byte("late"))
		if raw2, _ := c.output(); len(raw2) != 0 {
			t.Fatalf("output kept after it was taken: %q", raw2)
		}
	}
}

// TestCaptureSpoolsLargeOutput: an output past spoolAt goes to a temporary
// file and comes back byte for byte; the file is removed.
func TestCaptureSpoolsLargeOutput(t *testing.T) {
	cmd := "nv config show -o yaml"
	body := strings.Repeat("      swp1:\n        description: 'rail 1'\n", 3*spoolAt/40)
	stream := []byte(cmd + "\r\n" + onlcr(body) + switchPrompt + " ")
	c := newCapture(DefaultMaxOutput, cmd, switchPrompt)
	feedAll(c, stream, 64<<10)
	if c.spool == nil {
		t.Fatal("not spooled")
	}
	name := c.spool.Name()
	raw, err := c.output()
	if err != nil || !bytes.Equal(raw, stream) {
		t.Fatalf("read back %d bytes of %d: %v", len(raw), len(stream), err)
	}
	if c.spool != nil || fileExists(name) {
		t.Fatalf("spool file %s left behind", name)
	}
}

// TestCaptureOverMax: one byte past the limit ends the capture with
// errOverMax and drops what it held.
func TestCaptureOverMax(t *testing.T) {
	cmd := "ip -j link show"
	stream := []byte(cmd + "\r\n" + strings.Repeat("x", 2*spoolAt) + hostPrompt + " ")
	limit := int64(len(stream) - 1)
	c := newCapture(limit, cmd, hostPrompt)
	feedAll(c, stream, 4096)
	if !finished(c) {
		t.Fatal("not ended")
	}
	if _, err := c.output(); !errors.Is(err, errOverMax) {
		t.Fatalf("err %v, want errOverMax", err)
	}
	if c.spool != nil || c.mem != nil {
		t.Fatal("output kept after the limit")
	}
	c = newCapture(limit+1, cmd, hostPrompt)
	feedAll(c, stream, 4096)
	if raw, err := c.output(); err != nil || len(raw) != len(stream) {
		t.Fatalf("at the limit: %d bytes, %v", len(raw), err)
	}
}

func fileExists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}
