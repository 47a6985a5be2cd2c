// Package intern keeps one copy of each short string the models keep from
// device output, shared by every device that says the same.
package intern

import (
	"strings"
	"sync"
)

// shared holds one copy of each short string the models keep from device
// output: the devices of a fabric are mostly alike (the same PCI tree,
// bridge by bridge, the same firmware parameters NIC by NIC, the same
// port and profile names switch by switch), so a model need not keep a
// copy per device (at TestLintScale's 10,496 devices the hosts' clones
// were a tenth of the model). The parsers' strings are cut from the whole
// file's text (a trust state cut from mlnx_qos's kept all of it alive,
// 8 MB at that size; a port name cut from config_db.json, the whole file),
// so a string kept is a copy either way. The table is bounded: past
// maxShared strings, or for a string longer than maxSharedLen, a string
// is cloned each time.
var shared struct {
	sync.RWMutex
	m map[string]string
}

const (
	maxShared    = 1 << 16
	maxSharedLen = 256
)

// String is s, shared with every equal string interned before it. A
// string seen before takes only the read lock: the builders of a fabric's
// devices, one per processor, ask for the same names at once (with one
// lock, a SONiC switch's some 500 names cost 15 us of its 280 in
// BenchmarkLintSwitches).
func String(s string) string {
	if s == "" || len(s) > maxSharedLen {
		return strings.Clone(s)
	}
	shared.RLock()
	v, ok := shared.m[s]
	shared.RUnlock()
	if ok {
		return v
	}
	shared.Lock()
	defer shared.Unlock()
	if v, ok := shared.m[s]; ok {
		return v
	}
	c := strings.Clone(s)
	if len(shared.m) < maxShared {
		if shared.m == nil {
			shared.m = map[string]string{}
		}
		shared.m[c] = c
	}
	return c
}
