package live

import (
	"fmt"

	"github.com/qoslint/qoslint/inventory"
)

// maxWorkers bounds the pool: each worker holds an SSH session and its
// output buffers, and past a few hundred the collector only queues on the
// file-descriptor limit.
const maxWorkers = 1024

// Validate checks, before anything is dialled, what would otherwise make
// every device fail the same way: settings out of range, an inventory
// with no device, a known_hosts file that cannot be read. Zero values mean
// the defaults and are accepted; a negative one is a typo.
func Validate(inv *inventory.Inventory, opt Options) error {
	switch {
	case opt.Workers < 0 || opt.Workers > maxWorkers:
		return fmt.Errorf("--workers %d: between 1 and %d", opt.Workers, maxWorkers)
	case opt.CommandTimeout < 0:
		return fmt.Errorf("--command-timeout %v: must be positive", opt.CommandTimeout)
	case opt.DeviceTimeout < 0:
		return fmt.Errorf("--device-timeout %v: must be positive", opt.DeviceTimeout)
	case opt.Interval < 0:
		return fmt.Errorf("--interval %v: must be positive", opt.Interval)
	case opt.CommandTimeout > 0 && opt.DeviceTimeout > 0 && opt.DeviceTimeout < opt.CommandTimeout:
		return fmt.Errorf("--device-timeout %v is shorter than --command-timeout %v", opt.DeviceTimeout, opt.CommandTimeout)
	}
	if len(inv.Switches)+len(inv.Hosts) == 0 {
		return fmt.Errorf("%s names no device: nothing to collect", inv.File)
	}
	if hk := loadHostKeys(inv, opt); hk.err != nil {
		return fmt.Errorf("%v (or pass --insecure-skip-host-key-check)", hk.err)
	}
	return nil
}
