package model

import (
	"fmt"
	"strconv"
)

// CLRelease is a Cumulus Linux release as major.minor: what decides which
// NVUE commands a switch accepts (5.14.2 accepts what 5.14 does).
type CLRelease struct{ Major, Minor int }

// The releases qoslint's NVUE command table covers (nvue_commands.go): 5.0,
// the first NVUE-only release, to 5.19, the newest user guide published
// (CumulusNetworks/docs content/cumulus-linux-519/).
var (
	OldestCLRelease = CLRelease{5, 0}
	NewestCLRelease = CLRelease{5, 19}
)

// CLReleases are the releases the table covers, oldest first.
func CLReleases() []CLRelease {
	var out []CLRelease
	for m := OldestCLRelease.Minor; m <= NewestCLRelease.Minor; m++ {
		out = append(out, CLRelease{5, m})
	}
	return out
}

// ParseCLRelease reads the first major.minor of s: "5.9", "5.14.2",
// "Cumulus Linux 5.15.0". ok is false when s holds none.
func ParseCLRelease(s string) (CLRelease, bool) {
	m := versionRe.FindStringSubmatch(s)
	if m == nil {
		return CLRelease{}, false
	}
	major, err1 := strconv.Atoi(m[1])
	minor, err2 := strconv.Atoi(m[2])
	if err1 != nil || err2 != nil {
		return CLRelease{}, false
	}
	return CLRelease{major, minor}, true
}

func (r CLRelease) String() string { return fmt.Sprintf("%d.%d", r.Major, r.Minor) }

// IsZero reports whether r names no release.
func (r CLRelease) IsZero() bool { return r == CLRelease{} }

// Before reports whether r is older than o.
func (r CLRelease) Before(o CLRelease) bool {
	return r.Major < o.Major || r.Major == o.Major && r.Minor < o.Minor
}

// Syntax is the NVUE boolean vocabulary r speaks (5.15 renamed enable
// on|off to state enabled|disabled, see SyntaxOfRelease).
func (r CLRelease) Syntax() Syntax {
	if r.Before(CLRelease{5, 15}) {
		return Syntax514
	}
	return Syntax515
}

// CommandRelease is the release the switch's NVUE commands are printed for.
// A configuration without a version header names none: then the newest
// release of the syntax the file spells is assumed, and assumed says so.
func (s *Switch) CommandRelease() (r CLRelease, assumed string) {
	if r, ok := ParseCLRelease(s.Version); ok {
		return r, ""
	}
	if s.Syntax == Syntax514 {
		return CLRelease{5, 14}, "the configuration names no Cumulus Linux release and spells `enable on`: " +
			"its NVUE commands are checked as for 5.14, the newest release of that syntax"
	}
	return NewestCLRelease, fmt.Sprintf("the configuration names no Cumulus Linux release: "+
		"its NVUE commands are checked as for %s, the newest release qoslint knows", NewestCLRelease)
}
