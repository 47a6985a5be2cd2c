package fabric

import (
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/inventory"
)

// TestHostMemory holds what a GPU host costs while a fabric is linted: at
// TestLintScale's size (issue 23's 10,496 devices under 400 MiB, half of
// them hosts), the live heap at the end of collection sets the GC's goal,
// about twice it, so each byte kept per host counts twice. N copies of
// clean-pod's gpu01, each in a folder of its own with its own copy of
// every file's bytes (a model string that keeps a file's text alive is
// counted), are read through a Builder; the figures are the live heap per
// host once every device is read (the models and the trimmed captures)
// and once the model is built and the capture dropped.
//
// At commit 0e047e8, before a host's model was made smaller: 15.8 kB
// after collection, 12.7 kB the model (gpu01 has a wire capture: 1.2 kB
// of it); 6.0 and 5.0 kB since.
func TestHostMemory(t *testing.T) {
	const n = 400
	// A first, smaller fabric fills the process's tables of shared
	// strings and values, so that what follows is what one more host
	// costs.
	warm, warmInv := hostCopies(t, "../../examples/clean-pod/devices/gpu01", "warm", 40)
	Build(warmInv, offline.CollectFS(warm, warmInv))
	fsys, inv := hostCopies(t, "../../examples/clean-pod/devices/gpu01", "gpu", n)
	var base, collected, built runtime.MemStats
	// Twice: the readers' pooled buffers go to the pool's victim cache on
	// the first, and are freed on the second.
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&base)
	b := NewBuilder(inv)
	capture := offline.CollectFSTo(fsys, inv, b)
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&collected)
	f := b.Build(capture)
	capture = nil
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&built)
	if len(f.Hosts) != n || len(f.Problems) != 0 {
		t.Fatalf("%d hosts, %d problems; want %d clean hosts", len(f.Hosts), len(f.Problems), n)
	}
	perHost := func(m runtime.MemStats) float64 { return float64(int64(m.HeapAlloc)-int64(base.HeapAlloc)) / n / 1000 }
	t.Logf("per host: %.1f kB after collection, %.1f kB the model", perHost(collected), perHost(built))
	if got, max := perHost(collected), 6.4; got > max {
		t.Errorf("a host keeps %.1f kB once read, want at most %.1f", got, max)
	}
	if got, max := perHost(built), 5.4; got > max {
		t.Errorf("a host's model is %.1f kB, want at most %.1f", got, max)
	}
	runtime.KeepAlive(f)
	runtime.KeepAlive(b)
	runtime.KeepAlive(fsys) // the files, read before base, are not counted
}

// hostCopies is a fabric of n hosts named prefix0000 on, each a copy of
// the host folder src, in memory.
func hostCopies(t *testing.T, src, prefix string, n int) (fs.FS, *inventory.Inventory) {
	t.Helper()
	files := map[string][]byte{}
	err := fs.WalkDir(os.DirFS(src), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		// ReadFile follows the examples' symbolic links.
		b, err := os.ReadFile(src + "/" + p)
		files[p] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{}
	var inv strings.Builder
	inv.WriteString("fabric: bench\nswitches:\nhosts:\n")
	for i := range n {
		name := fmt.Sprintf("%s%04d", prefix, i)
		fmt.Fprintf(&inv, "  - {name: %s, address: 198.51.100.%d}\n", name, i%250+1)
		for p, b := range files {
			fsys["devices/"+name+"/"+p] = &fstest.MapFile{Data: append([]byte(nil), b...), Mode: 0o644}
		}
	}
	fsys["inventory.yaml"] = &fstest.MapFile{Data: []byte(inv.String()), Mode: 0o644}
	in, err := inventory.Parse("inventory.yaml", []byte(inv.String()))
	if err != nil {
		t.Fatal(err)
	}
	return fsys, in
}
