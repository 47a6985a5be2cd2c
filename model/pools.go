package model

import (
	"github.com/qoslint/qoslint/internal/source"
)

// TrafficPool is one `qos traffic-pool <name>` of the configuration, only
// what it writes: `nv set qos traffic-pool roce-lossless memory-percent 60`,
// `nv set qos traffic-pool default-lossy switch-priority 0-3,5-7`
// (CumulusNetworks/docs content/cumulus-linux-518/Layer-1-and-Switch-Ports/
// Quality-of-Service/_index.md, Traffic Pools; the RoCE page's remap-to-lossy
// recipe). What a pool gets when the configuration leaves it out under a
// RoCE mode is not documented ("Cumulus Linux allocates 100% of the buffer
// memory to the default-lossy traffic pool by default" is said of no RoCE),
// so only written values are modelled.
type TrafficPool struct {
	Name string
	// MemoryPercent is Known only when the configuration writes it.
	MemoryPercent Value[int]
	// SPs are the switch priorities the configuration assigns it; SPsPos
	// is where, zero when it assigns none.
	SPs    []int
	SPsPos source.Pos
}

// LossyPool reports whether a traffic pool is one of the guide's lossy
// pools (default-lossy, mc-lossy, roce-lossy); default-lossless and
// roce-lossless are its lossless ones.
func LossyPool(name string) bool {
	switch name {
	case "default-lossy", "mc-lossy", "roce-lossy":
		return true
	}
	return false
}
