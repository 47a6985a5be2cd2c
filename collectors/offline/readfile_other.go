//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package offline

import "io/fs"

// errNotExist is what opening a missing file fails with.
var errNotExist error = fs.ErrNotExist
