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

// TestTable: equal keys share the first value built; past Max a value is
// built and not kept; a Key tells apart fields that concatenate alike.
func TestTable(t *testing.T) {
	tab := Table[*int]{Max: 2}
	one, two := 1, 2
	key := func(s ...string) *Key {
		var k Key
		for _, f := range s {
			k.Str(f)
		}
		return &k
	}
	if string(key("ab", "c").b) == string(key("a", "bc").b) || string(new(Key).Int(1).Int(23).b) == string(new(Key).Int(12).Int(3).b) {
		t.Fatal("keys of different fields are equal")
	}
	a := tab.Share(key("a"), func() *int { return &one })
	b := tab.Share(key("a"), func() *int { return &two })
	if a != &one || b != &one {
		t.Error("an equal key did not share the first value")
	}
	if tab.Share(key("b"), func() *int { return &two }) != &two {
		t.Error("a new key did not take its own value")
	}
	builds := 0
	for range 2 {
		tab.Share(key("c"), func() *int { builds++; return &two })
	}
	if builds != 2 {
		t.Errorf("past Max, %d builds of 2: the value was kept", builds)
	}
}
