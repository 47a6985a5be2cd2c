package live

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
)

// DefaultMaxOutput is the default --max-output: what one command may print
// before its device fails. It matches the offline reader's cap on one file
// (collectors/offline maxDeviceFileBytes), so whatever a collection keeps,
// lint can read back.
const DefaultMaxOutput = 64 << 20

// spoolAt is how much of one command's output is held in memory; the rest
// goes to a temporary file until the prompt ends it. Device output then
// costs at most spoolAt per device in flight while it arrives, however
// large it is, and only an output that was kept (at most --max-output) is
// ever read back into memory, once.
const spoolAt = 1 << 20

// errOverMax is a capture that went past its limit.
var errOverMax = errors.New("output over the limit")

// errConnLost is a connection that ended while a command was running.
var errConnLost = errors.New("connection lost")

// cmdOutput is one command's raw output as it arrives from the pty: the
// echoed command line, the output, the next prompt.
type cmdOutput struct {
	max   int64
	isEnd func(tail []byte) bool
	// echo is the command as the pty echoes it. What arrives before it
	// is not the command's (a prompt answering scrapligo's own return
	// while it found the prompt, or late output of an earlier command),
	// and is dropped; pre holds the last bytes while it is looked for.
	echo   []byte
	echoed bool
	pre    []byte

	mu    sync.Mutex
	n     int64
	mem   []byte
	spool *os.File
	// tail is the last tailSize bytes, where the prompt that ends the
	// output is looked for.
	tail     []byte
	tailSize int
	err      error
	finished bool
	done     chan struct{}
}

func newCapture(max int64, cmd, prompt string) *cmdOutput {
	return &cmdOutput{
		max:      max,
		echo:     []byte(cmd),
		isEnd:    func(tail []byte) bool { return strings.HasSuffix(asSeen(tail), prompt) },
		tailSize: len(prompt) + 2*promptWindow,
		done:     make(chan struct{}),
	}
}

// feed takes the next bytes of the stream. Once the capture is finished,
// whatever follows is dropped.
func (c *cmdOutput) feed(b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.finished {
		return
	}
	if !c.echoed {
		if b = c.findEcho(b); b == nil {
			return
		}
	}
	c.n += int64(len(b))
	if c.n > c.max {
		c.finish(errOverMax)
		return
	}
	if err := c.store(b); err != nil {
		c.finish(err)
		return
	}
	c.keepTail(b)
	if c.isEnd(c.tail) {
		c.finish(nil)
	}
}

// findEcho returns the stream from the echo on, nil while it has not come.
func (c *cmdOutput) findEcho(b []byte) []byte {
	c.pre = append(c.pre, b...)
	if i := bytes.Index(c.pre, c.echo); i >= 0 {
		c.echoed = true
		rest := c.pre[i:]
		c.pre = nil
		return rest
	}
	if keep := max(len(c.echo)-1, 0); len(c.pre) > keep {
		c.pre = append(c.pre[:0], c.pre[len(c.pre)-keep:]...)
	}
	return nil
}

func (c *cmdOutput) store(b []byte) error {
	if c.spool == nil && len(c.mem)+len(b) > spoolAt {
		f, err := os.CreateTemp("", "qoslint-output-*")
		if err != nil {
			return fmt.Errorf("cannot spool a large output to disk: %w", err)
		}
		c.spool = f
		if _, err := f.Write(c.mem); err != nil {
			return fmt.Errorf("cannot spool a large output to disk: %w", err)
		}
		c.mem = nil
	}
	if c.spool != nil {
		if _, err := c.spool.Write(b); err != nil {
			return fmt.Errorf("cannot spool a large output to disk: %w", err)
		}
		return nil
	}
	c.mem = append(c.mem, b...)
	return nil
}

func (c *cmdOutput) keepTail(b []byte) {
	if len(b) >= c.tailSize {
		c.tail = append(c.tail[:0], b[len(b)-c.tailSize:]...)
		return
	}
	c.tail = append(c.tail, b...)
	if over := len(c.tail) - c.tailSize; over > 0 {
		copy(c.tail, c.tail[over:])
		c.tail = c.tail[:c.tailSize]
	}
}

// fail ends the capture with err unless it has already ended.
func (c *cmdOutput) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.finished {
		c.finish(err)
	}
}

// finish is called with mu held.
func (c *cmdOutput) finish(err error) {
	c.finished, c.err = true, err
	if err != nil {
		c.discard()
	}
	close(c.done)
}

func (c *cmdOutput) discard() {
	c.mem, c.tail = nil, nil
	if c.spool != nil {
		_ = c.spool.Close()
		_ = os.Remove(c.spool.Name())
		c.spool = nil
	}
}

// output returns the whole stream of a capture that ended at its prompt,
// read back once from the spool file if it went there; the file is
// removed either way.
func (c *cmdOutput) output() ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return nil, c.err
	}
	defer c.discard()
	if c.spool == nil {
		return c.mem, nil
	}
	out := make([]byte, c.n)
	if _, err := c.spool.ReadAt(out, 0); err != nil {
		return nil, fmt.Errorf("cannot read back the spooled output: %w", err)
	}
	return out, nil
}
