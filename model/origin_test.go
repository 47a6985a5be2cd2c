package model

import (
	"fmt"
	"sync"
	"testing"
	"unsafe"

	"github.com/qoslint/qoslint/internal/source"
)

func TestOrigin(t *testing.T) {
	at := source.Pos{File: "devices/leaf01/nv-config.yaml", Line: 42, Column: 7}
	for _, tc := range []struct {
		name      string
		o         Origin
		pos       source.Pos
		why, text string
		isDefault bool
	}{
		{"zero", Origin{}, source.Pos{}, "", "", false},
		{"explicit", At(at), at, "", "devices/leaf01/nv-config.yaml:42", false},
		{"file only", At(source.Pos{File: "devices/gpu01/nccl.conf"}), source.Pos{File: "devices/gpu01/nccl.conf"}, "", "devices/gpu01/nccl.conf", false},
		{"default", Because("NVUE defaults to RoCE lossless"), source.Pos{}, "NVUE defaults to RoCE lossless", "NVUE defaults to RoCE lossless", true},
		{"bound default", NewOrigin(at, "the default DSCP table"), at, "the default DSCP table", "devices/leaf01/nv-config.yaml:42 (the default DSCP table)", true},
		{"moved", Because("NCCL default").WithPos(source.Pos{File: "devices/gpu01/nccl.conf"}), source.Pos{File: "devices/gpu01/nccl.conf"}, "NCCL default", "devices/gpu01/nccl.conf (NCCL default)", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.o.Pos(); got != tc.pos {
				t.Errorf("Pos() = %+v, want %+v", got, tc.pos)
			}
			if got := tc.o.Default(); got != tc.why {
				t.Errorf("Default() = %q, want %q", got, tc.why)
			}
			if got := tc.o.String(); got != tc.text {
				t.Errorf("String() = %q, want %q", got, tc.text)
			}
			if got := tc.o.IsDefault(); got != tc.isDefault {
				t.Errorf("IsDefault() = %v, want %v", got, tc.isDefault)
			}
			if got := tc.o.IsZero(); got != (tc.pos.IsZero() && tc.why == "") {
				t.Errorf("IsZero() = %v", got)
			}
			// Equal origins are ==, as the old struct of Pos and Default was.
			if again := NewOrigin(tc.pos, tc.why); again != tc.o {
				t.Errorf("NewOrigin(Pos(), Default()) = %+v, want %+v", again, tc.o)
			}
		})
	}
	if At(at) == At(source.Pos{File: at.File, Line: 43}) || At(at) == NewOrigin(at, "x") {
		t.Error("different origins compare equal")
	}
}

// The compaction is the point of the type (the scale test's memory):
// keep a value to a word of V, Known and 12 bytes of origin.
func TestValueSize(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  uintptr
		want uintptr
	}{
		{"Origin", unsafe.Sizeof(Origin{}), 12},
		{"Value[bool]", unsafe.Sizeof(Value[bool]{}), 16},
		{"Value[int]", unsafe.Sizeof(Value[int]{}), 24},
		{"Value[string]", unsafe.Sizeof(Value[string]{}), 32},
	} {
		if tc.got != tc.want {
			t.Errorf("%s is %d bytes, want %d", tc.name, tc.got, tc.want)
		}
	}
}

// Builders run a device each on their own goroutine: interning must give
// every goroutine the same origin for the same source (go test -race).
func TestOriginConcurrent(t *testing.T) {
	const workers, files = 8, 200
	got := make([][]Origin, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range files {
				got[w] = append(got[w], NewOrigin(source.Pos{File: fmt.Sprintf("devices/d%03d/f", i), Line: i}, "why"))
			}
		}()
	}
	wg.Wait()
	for w := 1; w < workers; w++ {
		for i := range files {
			if got[w][i] != got[0][i] {
				t.Fatalf("worker %d file %d: %+v, worker 0: %+v", w, i, got[w][i], got[0][i])
			}
		}
	}
	if p := got[3][17].Pos(); p.File != "devices/d017/f" || p.Line != 17 {
		t.Errorf("Pos() = %+v", p)
	}
}

// A file is interned as its device folder and the path below it: every
// name comes back whole, and the parts are kept once however many
// devices share them.
func TestOriginFileParts(t *testing.T) {
	for _, f := range []string{"inventory.yaml", "devices/leaf01", "devices/leaf01/", "devices/gpu01/sysfs/class/net/ens1f0np0/mtu", "/abs/x/y", "a//b", "devices/gpu01/nccl.conf"} {
		head, tail := splitFile(f)
		if head+tail != f {
			t.Errorf("splitFile(%q) = %q + %q", f, head, tail)
		}
		if got := At(source.Pos{File: f, Line: 3}).Pos().File; got != f {
			t.Errorf("%q comes back as %q", f, got)
		}
	}
	before := func() int {
		originSources.mu.RLock()
		defer originSources.mu.RUnlock()
		return len(originSources.heads.list) + len(originSources.tails.list)
	}
	At(source.Pos{File: "devices/parts-a/sysfs/class/net/ens9/mtu"})
	n := before()
	for i := range 50 {
		At(source.Pos{File: fmt.Sprintf("devices/parts-%d/sysfs/class/net/ens9/mtu", i)})
	}
	if got := before() - n; got != 50 {
		t.Errorf("50 devices' one file added %d parts, want 50 (one folder each, the path below shared)", got)
	}
}

// A file's id is its parts' ids packed, with no table of files, until a
// fabric has more folders (or paths below them) than the bits hold; past
// that its files are listed, and every name, alone or with a default
// text, still comes back whole.
func TestOriginFilesPastPacked(t *testing.T) {
	var tab sourceTable
	a := tab.lookupFile("devices/gpu01/sysfs/class/net/ens1f0np0/mtu")
	if a&packedID == 0 || tab.lookupFile("devices/gpu01/sysfs/class/net/ens1f0np0/mtu") != a || len(tab.fileList) != 0 {
		t.Fatalf("id %#x, %d files listed: want one packed id and none listed", a, len(tab.fileList))
	}
	tab.mu.Lock()
	for i := len(tab.heads.list); i < packedHeads; i++ {
		tab.heads.id(fmt.Sprintf("devices/h%05d/", i))
	}
	tab.mu.Unlock()
	past := "devices/past/sysfs/class/net/ens1f0np0/mtu"
	b := tab.lookupFile(past)
	if b&packedID != 0 || tab.lookupFile(past) != b || len(tab.fileList) != 1 {
		t.Errorf("id %#x, %d files listed: want the folder past packedHeads listed once", b, len(tab.fileList))
	}
	for id, want := range map[uint32]string{a: "devices/gpu01/sysfs/class/net/ens1f0np0/mtu", b: past} {
		if got := tab.get(id).file; got != want {
			t.Errorf("id %#x is %q, want %q", id, got, want)
		}
	}
	// A default text with either file is a pair of the two ids.
	for _, file := range []string{"devices/gpu01/sysfs/class/net/ens1f0np0/mtu", past, ""} {
		if got := tab.get(tab.id(file, "the kernel's default")); got != (originSource{file, "the kernel's default"}) {
			t.Errorf("pair of %q comes back as %+v", file, got)
		}
	}
}
