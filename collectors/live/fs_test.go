package live

import (
	"io/fs"

	"github.com/qoslint/qoslint/collectors/memfs"
	"github.com/qoslint/qoslint/internal/layout"
)

// resultFS is the collected files as a read-only fabric directory without
// the inventory, for offline.CollectFS.
func resultFS(r *Result) fs.FS {
	// offline.CollectFS reads the devices folder even when it is empty.
	return memfs.New(r.Files, layout.DevicesDir)
}
