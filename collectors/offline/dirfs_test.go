package offline

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestDirFSReadsAsOSDirFS: the fabric directory's own reading gives what
// reading through os.DirFS gives (the bytes, or the error and its text)
// for every kind of file a fabric directory may hold.
func TestDirFSReadsAsOSDirFS(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("small.txt", []byte("mode lossless\n"))
	write("empty.txt", nil)
	// Past the scratch buffer, and not a multiple of it.
	write("large.txt", bytes.Repeat([]byte("swp1 0 1 2 3\n"), 10_000))
	if err := os.Mkdir(filepath.Join(dir, "folder"), 0o755); err != nil {
		t.Fatal(err)
	}
	huge, err := os.Create(filepath.Join(dir, "huge.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// Sparse: over the limit without writing 64 MiB.
	if err := huge.Truncate(maxDeviceFileBytes + 1); err != nil {
		t.Fatal(err)
	}
	huge.Close()
	fast := inputFS{FS: newDirFS(dir), r: &reader{capture: nil}}
	slow := inputFS{FS: os.DirFS(dir)}
	if _, ok := fast.FS.(limitedReader); !ok {
		t.Skip("no fast path on this system")
	}
	for _, name := range []string{"small.txt", "empty.txt", "large.txt", "folder", "huge.txt", "absent.txt", "../escape", "folder/absent"} {
		got, gerr := fast.readLimited(name)
		want, werr := slow.readLimited(name)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes, want %d", name, len(got), len(want))
		}
		if (gerr == nil) != (werr == nil) || gerr != nil && unwrapPathError(gerr).Error() != unwrapPathError(werr).Error() {
			t.Errorf("%s: error %v, want %v", name, gerr, werr)
		}
		if errors.Is(gerr, fs.ErrNotExist) != errors.Is(werr, fs.ErrNotExist) {
			t.Errorf("%s: not-exist %v, want %v", name, errors.Is(gerr, fs.ErrNotExist), errors.Is(werr, fs.ErrNotExist))
		}
	}
}
