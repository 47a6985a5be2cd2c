// Package filebuf recycles the buffers large device files are read into.
// A SONiC switch's config_db.json is tens to hundreds of kB, read whole
// and parsed in place (configdb.ParseOwned); once the switch's model is
// built the parse gives the buffer back (configdb.Config.Release) for the
// next switch's file, rather than the heap taking a new one per switch
// (at BenchmarkLintSwitches' 32-port switch, 67 kB of a SONiC lint's
// 210 kB per switch).
package filebuf

import "sync"

// pool holds the buffers given back, each as a *[]byte so that a Put
// allocates nothing.
var pool sync.Pool

// Get is a buffer of length n: one given back whose capacity holds n, else
// a new one. Its bytes are not zeroed: the caller overwrites what it reads.
func Get(n int) []byte {
	if p, ok := pool.Get().(*[]byte); ok {
		if cap(*p) >= n {
			return (*p)[:n]
		}
		// Too small for this file: kept for a file that fits it.
		pool.Put(p)
	}
	// A buffer over 32 kB takes whole pages of 8 kB (the runtime's
	// large objects): its capacity up to the page's end costs nothing,
	// and lets it serve the next file of about the same size, as a
	// fabric's switches' files mostly are, byte counts apart.
	return make([]byte, n, (n+8191)&^8191)
}

// Put gives b back for a later Get to reuse from its first byte to its
// capacity. The caller gives up b: neither it nor a string cut from it
// may be read afterwards.
func Put(b []byte) {
	if cap(b) == 0 {
		return
	}
	b = b[:cap(b)]
	pool.Put(&b)
}
