package render

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/waivers"
	"github.com/qoslint/qoslint/collectors/layout"
	"github.com/qoslint/qoslint/inventory/source"
)

// SARIF 2.1.0 (OASIS), in the subset GitHub code scanning reads
// (github/docs, code-scanning "SARIF support for code scanning").
const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
	sarifInfoURI = "https://github.com/qoslint/qoslint"
	// sarifSrcRoot is the base of every artifact URI: the fabric
	// directory, which evidence paths are relative to.
	sarifSrcRoot = "%SRCROOT%"
	// sarifInputRule is the synthetic rule input errors are results of.
	sarifInputRule = "input-error"
	// sarifFingerprint is qoslint's own partialFingerprints key.
	sarifFingerprint = "qoslintFindingHash/v1"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                   `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds"`
	Results            []sarifResult               `json:"results"`
	Properties         map[string]string           `json:"properties,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string        `json:"id"`
	Name                 string        `json:"name"`
	ShortDescription     sarifMessage  `json:"shortDescription"`
	FullDescription      sarifMessage  `json:"fullDescription"`
	Help                 sarifMessage  `json:"help"`
	DefaultConfiguration sarifRuleConf `json:"defaultConfiguration"`
}

type sarifRuleConf struct {
	Level string `json:"level"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifMessage       `json:"message"`
	Locations           []sarifLocation    `json:"locations,omitempty"`
	PartialFingerprints map[string]string  `json:"partialFingerprints"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
	Properties          *sarifResultProps  `json:"properties,omitempty"`
}

// sarifSuppression marks a waived result (SARIF 2.1.0 §3.34): kind
// "external" because the waiver lives in qoslint-waivers.yaml, not in the
// evidence file; the waiver's reason is the justification. Viewers show
// the result as suppressed, not as an open alert.
type sarifSuppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification,omitempty"`
}

// sarifResultProps carries what SARIF has no field for. The fix commands
// are here and in the message, not in result.fixes: a SARIF fix requires
// artifactChanges with at least one textual replacement (sarif-schema-2.1.0
// "fix", "artifactChange"), and a qoslint fix is a command to run on a
// device, not an edit of the evidence file; a fake edit would validate but
// a viewer offering "apply fix" would then do the wrong thing.
type sarifResultProps struct {
	Device    string   `json:"device,omitempty"`
	Interface string   `json:"interface,omitempty"`
	Fix       []string `json:"fix,omitempty"`
	Rollback  []string `json:"rollback,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
	Region           *sarifRegion     `json:"region,omitempty"`
}

type sarifArtifactLoc struct {
	URI         string        `json:"uri,omitempty"`
	URIBaseID   string        `json:"uriBaseId,omitempty"`
	Description *sarifMessage `json:"description,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// SARIF writes the report as a SARIF 2.1.0 log for code-scanning UIs: one
// run, the catalog as rules (plus input-error), one result per finding and
// per input error, each located at its evidence file:line relative to the
// fabric directory, with a fingerprint that survives line moves.
func SARIF(w io.Writer, r *Report) error {
	r.Normalize()
	rules, index := sarifRules(r)
	results, err := sarifResults(r, index)
	if err != nil {
		return err
	}
	out := sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{{
		Tool: sarifTool{Driver: sarifDriver{Name: "qoslint", InformationURI: sarifInfoURI, Rules: rules}},
		// The absolute URI is not known here (the report holds paths
		// relative to the fabric directory); SARIF §3.14.14 lets a base
		// have only a description, and GitHub resolves relative URIs
		// against the repository root.
		OriginalURIBaseIDs: map[string]sarifArtifactLoc{sarifSrcRoot: {
			Description: &sarifMessage{Text: "the fabric directory qoslint read (evidence paths are relative to it)"},
		}},
		Results:    results,
		Properties: map[string]string{"fabric": r.Fabric},
	}}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	// Commands hold ">" and "&": keep them readable, JSON does not need
	// them escaped.
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// sarifRules are the catalog, then input-error, then the waiver file's
// own rule and the merged "not collected" rule when the report uses them
// (last, so that the other rules keep their index); index maps a rule ID
// to its place.
func sarifRules(r *Report) ([]sarifRule, map[string]int) {
	all := checks.All()
	rules := make([]sarifRule, 0, len(all)+3)
	index := map[string]int{}
	add := func(c *checks.Check) {
		index[c.ID] = len(rules)
		rule := sarifRuleFor(c.ID, c.Severity, c.Title, c.Doc)
		rule.Help.Text += "\n\n`qoslint explain " + c.ID + "` prints this."
		rules = append(rules, rule)
	}
	for _, c := range all {
		add(c)
	}
	index[sarifInputRule] = len(rules)
	rules = append(rules, sarifRuleFor(sarifInputRule, checks.Error,
		"A device file could not be read or parsed",
		"An input file was missing where it is required, malformed, not in the inventory, or a device could not be "+
			"collected. The result names the file and line. The rest of the fabric was still checked, but what the "+
			"unread file configures was not: fix the input and run again."))
	uses := func(c *checks.Check) bool {
		return slices.ContainsFunc(r.Findings, func(f checks.Finding) bool { return f.Check == c.ID })
	}
	if r.Waivers != "" || uses(waivers.Check) {
		add(waivers.Check)
	}
	if uses(checks.NotCollected) {
		add(checks.NotCollected)
	}
	return rules, index
}

// sarifResults are one result per finding, then one per input error.
func sarifResults(r *Report, index map[string]int) ([]sarifResult, error) {
	fp := sarifFingerprints{}
	results := []sarifResult{}
	for _, f := range r.Findings {
		fix, rb := r.FindingCommands(f)
		idx, ok := index[f.Check]
		if !ok {
			// Every finding comes from the catalog; an unknown ID is a bug
			// that must not make a rule-less result.
			return nil, fmt.Errorf("sarif: finding of unknown check %q", f.Check)
		}
		res := sarifResult{
			RuleID: f.Check, RuleIndex: idx, Level: sarifLevel(f.Severity),
			Message:             sarifMessage{Text: sarifText(f, fix, rb)},
			Locations:           sarifLocations(f.Device, f.Source),
			PartialFingerprints: fp.next(f.Check, f.Device, f.Interface, f.Message),
			Properties:          &sarifResultProps{Device: f.Device, Interface: f.Interface, Fix: fix, Rollback: rb},
		}
		if f.Waived {
			res.Suppressions = []sarifSuppression{{Kind: "external", Justification: f.WaiverReason}}
		}
		results = append(results, res)
	}
	for _, e := range r.Errors {
		results = append(results, sarifResult{
			RuleID: sarifInputRule, RuleIndex: index[sarifInputRule], Level: "error",
			Message:             sarifMessage{Text: e.Error()},
			Locations:           sarifLocations(e.Device, e.Pos),
			PartialFingerprints: fp.next(sarifInputRule, e.Device, e.File, e.Msg),
			Properties:          &sarifResultProps{Device: e.Device},
		})
	}
	return results, nil
}

// sarifRuleFor describes a rule. GitHub shows fullDescription and
// help.text (which it requires) beside each alert; the catalog's Doc is
// wrapped for a terminal, so its lines are joined back into paragraphs.
func sarifRuleFor(id string, sev checks.Severity, title, doc string) sarifRule {
	paras := strings.Split(doc, "\n\n")
	for i, p := range paras {
		paras[i] = strings.Join(strings.Fields(p), " ")
	}
	doc = strings.Join(paras, "\n\n")
	return sarifRule{
		ID: id, Name: sarifRuleName(id),
		ShortDescription:     sarifMessage{Text: clip(title, sarifDescMax)},
		FullDescription:      sarifMessage{Text: clip(doc, sarifDescMax)},
		Help:                 sarifMessage{Text: doc},
		DefaultConfiguration: sarifRuleConf{Level: sarifLevel(sev)},
	}
}

// sarifDescMax is GitHub's limit on a rule's short and full description
// ("Limited to 1024 characters"); help.text has none and keeps it all.
const sarifDescMax = 1024

// clip cuts s to at most n characters, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// sarifRuleName is the rule's friendly name, a Pascal identifier as the
// SARIF SDK validator asks (microsoft/sarif-sdk SARIF2025
// ProvideRuleFriendlyName): switch-roce-mode → SwitchRoceMode.
func sarifRuleName(id string) string {
	var b strings.Builder
	for _, part := range strings.Split(id, "-") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

// sarifLevel maps a severity to a SARIF level (§3.27.10).
func sarifLevel(s checks.Severity) string {
	switch s {
	case checks.Error:
		return "error"
	case checks.Warning:
		return "warning"
	}
	return "note"
}

// sarifText is what a code-scanning UI shows of a result; GitHub shows no
// custom property, so the fix is written out here too.
func sarifText(f checks.Finding, fix, rb []string) string {
	var b strings.Builder
	b.WriteString(f.Message)
	where := f.Device
	if f.Interface != "" {
		where += " " + f.Interface
	}
	fmt.Fprintf(&b, "\ndevice: %s", where)
	if f.Expected != "" {
		fmt.Fprintf(&b, "\nexpected: %s", f.Expected)
	}
	if f.Actual != "" {
		fmt.Fprintf(&b, "\nactual: %s", f.Actual)
	}
	if f.Waived {
		fmt.Fprintf(&b, "\nwaived: %s", f.WaiverReason)
	}
	for _, l := range []struct {
		label string
		cmds  []string
	}{{"fix", fix}, {"rollback", rb}} {
		if len(l.cmds) > 0 {
			fmt.Fprintf(&b, "\n%s:\n  %s", l.label, strings.Join(l.cmds, "\n  "))
		}
	}
	return b.String()
}

// sarifLocations points at the evidence file and line. GitHub shows no
// result without a location, so a finding with no file (a file that was
// not collected, a device that could not be reached) points at the
// device's folder instead.
func sarifLocations(device string, pos source.Pos) []sarifLocation {
	file := pos.File
	if file == "" {
		if device == "" {
			return nil
		}
		file = layout.DeviceDir(device) // a result with no file points at the device's folder
	}
	loc := sarifLocation{PhysicalLocation: sarifPhysical{
		ArtifactLocation: sarifArtifactLoc{URI: sarifURI(file), URIBaseID: sarifSrcRoot},
	}}
	// GitHub code scanning places an alert only with region.startLine
	// (microsoft/sarif-sdk GH1003.ProvideRequiredRegionProperties). The
	// exact YAML key where the format has columns; a command line is
	// evidence as a whole (column omitted); a whole file, or a device
	// folder, anchors at its line 1.
	region := &sarifRegion{StartLine: 1}
	if pos.File != "" && pos.Line > 0 {
		region = &sarifRegion{StartLine: pos.Line, StartColumn: pos.Column}
	}
	loc.PhysicalLocation.Region = region
	return []sarifLocation{loc}
}

// sarifURI makes a relative path a relative URI reference (RFC 3986):
// each segment percent-encoded, "/" kept.
func sarifURI(path string) string {
	segs := strings.Split(path, "/")
	for i, s := range segs {
		segs[i] = uriSegment(s)
	}
	return strings.Join(segs, "/")
}

func uriSegment(s string) string {
	// Unreserved and sub-delims, plus "@"; ":" is encoded, since in the
	// first segment of a relative reference it would read as a scheme.
	const unreserved = "-._~!$&'()*+,;=@"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(unreserved, c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// sarifFingerprints hands out partialFingerprints. The hash is of what the
// finding is (check, device, interface, message), not where it is, so a
// finding keeps its identity when lines move; identical findings get an
// occurrence number, as GitHub's own "hash:n" values do. GitHub reads only
// primaryLocationLineHash, so the value is given under that key as well as
// under qoslint's own.
type sarifFingerprints map[string]int

func (s sarifFingerprints) next(parts ...string) map[string]string {
	hash := sha256.New()
	for _, p := range parts {
		// Length-prefixed, so that no two part lists hash alike.
		fmt.Fprintf(hash, "%d:%s", len(p), p)
	}
	h := hash.Sum(nil)
	key := hex.EncodeToString(h[:16])
	s[key]++
	v := fmt.Sprintf("%s:%d", key, s[key])
	return map[string]string{sarifFingerprint: v, "primaryLocationLineHash": v}
}
