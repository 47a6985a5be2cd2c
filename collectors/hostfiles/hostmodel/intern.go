package hostmodel

import (
	"strings"
	"sync"
)

// shared holds one copy of each short string the host models keep from
// lspci, mlxconfig, mlnx_qos and sysfs (a trust state cut from the
// text of mlnx_qos kept the whole text of it, 8 MB at TestLintScale's
// size): the hosts of a fabric are mostly alike (the same
// PCI tree, bridge by bridge, and the same firmware parameters, NIC by
// NIC), so the model need not keep a copy per host (at TestLintScale's
// 10,496 devices the clones were a tenth of the model). The parsers'
// strings are cut from the whole file's text, so a string kept is a
// copy either way. The table is bounded: past maxShared strings, or for a
// string longer than maxSharedLen, a string is cloned as before.
var shared struct {
	sync.Mutex
	m map[string]string
}

const (
	maxShared    = 1 << 16
	maxSharedLen = 256
)

// intern is s, shared with every equal string interned before it.
func intern(s string) string {
	if s == "" || len(s) > maxSharedLen {
		return strings.Clone(s)
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
