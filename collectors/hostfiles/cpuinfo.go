package hostfiles

import (
	"strings"

	"github.com/qoslint/qoslint/internal/source"
)

// CPUInfo is what qoslint reads of /proc/cpuinfo: whether the kernel runs
// under a hypervisor. On x86 the kernel lists the CPUID "hypervisor" bit
// (X86_FEATURE_HYPERVISOR, Linux arch/x86/include/asm/cpufeatures.h) in
// every processor's "flags" line; other architectures print no "flags"
// line, and then it is not known.
type CPUInfo struct {
	File string
	// HasFlags is true when a "flags" line was printed: only then does the
	// absence of "hypervisor" mean bare metal.
	HasFlags   bool
	Hypervisor bool
	// Line is the first "flags" line (the one holding "hypervisor" when
	// any does).
	Line int
}

// ParseCPUInfo reads /proc/cpuinfo's "key<TAB>: value" lines. A non-empty
// line without a colon is an error at its line.
func ParseCPUInfo(file string, data []byte) (*CPUInfo, error) {
	c := &CPUInfo{File: file}
	for i, raw := range splitLines(data) {
		n := i + 1
		if strings.TrimSpace(raw) == "" {
			continue
		}
		k, v, ok := strings.Cut(raw, ":")
		if !ok {
			return nil, source.Errorf(file, n, "not a /proc/cpuinfo \"key : value\" line: %q", clip(raw))
		}
		if strings.TrimSpace(k) != "flags" {
			continue
		}
		if !c.HasFlags {
			c.HasFlags, c.Line = true, n
		}
		for _, f := range strings.Fields(v) {
			if f == "hypervisor" && !c.Hypervisor {
				c.Hypervisor, c.Line = true, n
			}
		}
	}
	return c, nil
}
