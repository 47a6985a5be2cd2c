package model

import (
	"fmt"
	"regexp"
	"strings"
)

// NVUE boolean spellings. CL 5.15 renamed `enable on|off` to `state
// enabled|disabled` and bare on/off to enabled/disabled; the QoS leaves keep
// enable/disable (CumulusNetworks/docs
// content/cumulus-linux-515/Whats-New/New-and-Changed-NVUE-Commands.md has no
// row for them), so on, enable, enabled and true-like values are equivalent.
var (
	trueWords  = map[string]bool{"on": true, "enable": true, "enabled": true, "true": true, "yes": true}
	falseWords = map[string]bool{"off": true, "disable": true, "disabled": true, "false": true, "no": true}
)

// ParseBool reads any NVUE spelling of a boolean.
func ParseBool(s string) (v, ok bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch {
	case trueWords[s]:
		return true, true
	case falseWords[s]:
		return false, true
	}
	return false, false
}

// Syntax is which NVUE boolean vocabulary a switch speaks.
type Syntax int

const (
	// Syntax515 is CL 5.15 and later: `state enabled`, `source-port enabled`.
	Syntax515 Syntax = iota
	// Syntax514 is CL 5.14 and earlier: `enable on`, `source-port on`.
	Syntax514
)

func (s Syntax) String() string {
	if s == Syntax514 {
		return "5.14"
	}
	return "5.15"
}

// StateKey is the leaf that turns a feature (qos roce, adaptive routing) on.
func (s Syntax) StateKey() string {
	if s == Syntax514 {
		return "enable"
	}
	return "state"
}

// OnOff spells a feature state or an ecmp-hash field.
func (s Syntax) OnOff(b bool) string {
	switch {
	case s == Syntax514 && b:
		return "on"
	case s == Syntax514:
		return "off"
	case b:
		return "enabled"
	}
	return "disabled"
}

// EnableDisable spells the QoS leaves that kept enable/disable in every
// release that has them (pfc tx/rx, congestion-control ecn), as the user
// guides of 5.14, 5.18 and 5.19 write them; NVUEBool reads the same words
// from the command table per release (TestECNSpellingSources holds both).
func EnableDisable(b bool) string {
	if b {
		return "enable"
	}
	return "disable"
}

var versionRe = regexp.MustCompile(`(\d+)\.(\d+)`)

// releaseRe is a Cumulus Linux 5 release as people write it: 5.9, 5.14.2.
var releaseRe = regexp.MustCompile(`^5\.(\d{1,2})(\.\d{1,3}){0,2}$`)

// SyntaxOfRelease is the NVUE syntax a Cumulus Linux 5 release (5.0 to
// 5.x, with or without a patch level) uses; anything else is an error.
// 5.15 renamed enable on|off to state enabled|disabled
// (CumulusNetworks/docs, content/cumulus-linux-515/Whats-New/New-and-Changed-NVUE-Commands.md,
// table "CL5.14.0 and Earlier | CL5.15 and Later"; content/nvue-reference/
// Set-and-Unset-Commands/QoS.md: "In Cumulus Linux 5.14 and earlier, you
// specify enable on or enable off").
func SyntaxOfRelease(release string) (Syntax, error) {
	if !releaseRe.MatchString(release) {
		return Syntax515, fmt.Errorf("not a Cumulus Linux 5 release (5.0 to 5.x, e.g. 5.9, 5.14.2, 5.18)")
	}
	syn, _ := syntaxOfVersion(release)
	return syn, nil
}

// syntaxOfVersion reads "Cumulus Linux 5.15.0"; ok is false when no version
// can be read.
func syntaxOfVersion(v string) (Syntax, bool) {
	r, ok := ParseCLRelease(v)
	if !ok {
		return Syntax515, false
	}
	return r.Syntax(), true
}
