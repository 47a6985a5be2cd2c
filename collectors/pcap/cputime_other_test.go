//go:build !unix

package pcap_test

import "time"

// cpuTime is not measured here; the benchmark reports wall-clock rates only.
func cpuTime() time.Duration { return 0 }
