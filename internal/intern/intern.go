// Package intern keeps one copy of each short string the models keep from
// device output, shared by every device that says the same.
package intern

import (
	"crypto/sha256"
	"strconv"
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

// Table keeps one value per key, as String keeps one copy of a string:
// for what a model builds alike device after device from the same output
// (a NIC's firmware parameters, a host's PCI functions), the devices of a
// fabric being mostly copies of a few. A value kept is shared by every
// device whose key is the same, so it must never be changed. The table is
// bounded: past Max keys, a value is its device's own. It keeps a key's
// SHA-256, not the key: a host's PCI functions make a key of kilobytes.
type Table[V any] struct {
	// Max is the most keys kept.
	Max int
	mu  sync.RWMutex
	m   map[[sha256.Size]byte]V
}

// Share is the value kept for k, else build's, kept for k while the
// table has room. k must say everything the value holds: equal keys must
// mean values alike.
func (t *Table[V]) Share(k *Key, build func() V) V {
	sum := sha256.Sum256(k.b)
	t.mu.RLock()
	v, ok := t.m[sum]
	t.mu.RUnlock()
	if ok {
		return v
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if v, ok := t.m[sum]; ok {
		return v
	}
	v = build()
	if len(t.m) < t.Max {
		if t.m == nil {
			t.m = map[[sha256.Size]byte]V{}
		}
		t.m[sum] = v
	}
	return v
}

// Key is a Table's key, built field by field, each field unambiguous
// whatever bytes it holds.
type Key struct{ b []byte }

// Str adds s, its length first.
func (k *Key) Str(s string) *Key {
	k.b = strconv.AppendInt(k.b, int64(len(s)), 10)
	k.b = append(k.b, ':')
	k.b = append(k.b, s...)
	return k
}

// Int adds n.
func (k *Key) Int(n int) *Key {
	k.b = strconv.AppendInt(k.b, int64(n), 10)
	k.b = append(k.b, ';')
	return k
}

// Bool adds b.
func (k *Key) Bool(b bool) *Key {
	if b {
		k.b = append(k.b, 't')
	} else {
		k.b = append(k.b, 'f')
	}
	return k
}
