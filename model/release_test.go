package model

import "testing"

// TestSyntaxOfRelease: every Cumulus Linux 5 release maps to the syntax it
// uses; 5.15 renamed enable on|off to state enabled|disabled
// (CumulusNetworks/docs, content/cumulus-linux-515/Whats-New/New-and-Changed-NVUE-Commands.md).
func TestSyntaxOfRelease(t *testing.T) {
	for _, tc := range []struct {
		release string
		want    Syntax
		ok      bool
	}{
		{"5.0", Syntax514, true}, {"5.9", Syntax514, true}, {"5.14", Syntax514, true}, {"5.14.2", Syntax514, true},
		{"5.15", Syntax515, true}, {"5.15.0", Syntax515, true}, {"5.18", Syntax515, true}, {"5.21.1", Syntax515, true},
		{"4.4", 0, false}, {"6.0", 0, false}, {"5", 0, false}, {"5.x", 0, false}, {"", 0, false},
		{"Cumulus Linux 5.9", 0, false}, {"5.9;reboot", 0, false}, {" 5.9", 0, false},
	} {
		got, err := SyntaxOfRelease(tc.release)
		if (err == nil) != tc.ok || tc.ok && got != tc.want {
			t.Errorf("SyntaxOfRelease(%q) = %v, %v; want %v, ok %t", tc.release, got, err, tc.want, tc.ok)
		}
	}
}
