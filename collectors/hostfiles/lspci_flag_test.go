package hostfiles

import (
	"regexp"
	"testing"
)

var acsFlagRe = regexp.MustCompile(`^([A-Za-z]+)([+-])$`)

// FuzzACSFlag: acsFlag takes what ^([A-Za-z]+)([+-])$ matches, with the
// same name and sign, and nothing else.
func FuzzACSFlag(f *testing.F) {
	for _, w := range []string{"SrcValid+", "TransBlk-", "+", "-", "a+", "Z-", "a1+", "Src_Valid+", "é+", "ab", "ab+-", "@+", "[-", "`+", "{-"} {
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, w string) {
		name, on, ok := acsFlag(w)
		m := acsFlagRe.FindStringSubmatch(w)
		if ok != (m != nil) || ok && (name != m[1] || on != (m[2] == "+")) {
			t.Fatalf("%q: %q %v %v, expression %q", w, name, on, ok, m)
		}
	})
}
