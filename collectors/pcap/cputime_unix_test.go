//go:build unix

package pcap_test

import (
	"syscall"
	"time"
)

// cpuTime is the process's user+system CPU time: on a shared machine the
// benchmark's wall-clock rate measures the neighbours too, the CPU time
// it spent does not.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
