package help

import (
	"slices"
	"strings"
	"testing"
)

// Every embedded file is a listed topic and every topic has its file, so
// no page is unreachable and `qoslint help` lists nothing it cannot show.
func TestTopicsAreTheFiles(t *testing.T) {
	var want []string
	for _, tp := range Topics() {
		want = append(want, tp.Name+".md")
		text, name, ok := Lookup(tp.Name)
		if !ok || name != tp.Name {
			t.Errorf("Lookup(%q) = %q, %v", tp.Name, name, ok)
		}
		if !strings.HasPrefix(text, "# ") {
			t.Errorf("%s.md does not start with a title line", tp.Name)
		}
		if tp.Short == "" {
			t.Errorf("%s has no short description", tp.Name)
		}
	}
	slices.Sort(want)
	if got := Files(); !slices.Equal(got, want) {
		t.Errorf("embedded files %v, topics %v", got, want)
	}
	for _, a := range Aliases() {
		if _, name, ok := Lookup(a); !ok || name == a {
			t.Errorf("alias %q leads nowhere", a)
		}
	}
	if _, _, ok := Lookup("nope"); ok {
		t.Error("Lookup of an unknown name succeeded")
	}
}
