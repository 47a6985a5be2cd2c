package intern

import (
	"strings"
	"testing"
	"unsafe"
)

// TestString: an interned string is equal to its input and a copy of it
// (the parsers cut theirs from the whole file), shared by equal strings;
// a long one is copied, not kept.
func TestString(t *testing.T) {
	text := "PCI bridge: Intel Corporation Ice Lake PCI Express Root Port A"
	a, b := String(text[:10]), String(strings.Clone(text[:10]))
	if a != "PCI bridge" || unsafe.StringData(a) != unsafe.StringData(b) || unsafe.StringData(a) == unsafe.StringData(text) {
		t.Errorf("%q %q: want one copy, not the text's", a, b)
	}
	long := strings.Repeat("x", maxSharedLen+1)
	if l := String(long); l != long || unsafe.StringData(l) == unsafe.StringData(long) || unsafe.StringData(String(long)) == unsafe.StringData(l) {
		t.Error("a long string is copied each time")
	}
	if String("") != "" {
		t.Error("empty")
	}
}
