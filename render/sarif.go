package render

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/checks/waivers"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

// SARIF 2.1.0 (OASIS), in the subset GitHub code scanning reads
// (github/docs, code-scanning "SARIF support for code scanning").
const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
	sarifInfoURI = "https://github.com/qoslint/qoslint"
	// sarifHelpURI is the page each rule's helpUri is an anchor of: the
	// checks topic of `qoslint help`, one heading per rule ID (the rule ID
	// is the anchor GitHub makes of a heading that is the ID).
	sarifHelpURI = "https://github.com/qoslint/qoslint/blob/main/cmd/qoslint/help/checks.md"
	// sarifSrcRoot is the base of every artifact URI: the repository root
	// (Report.PathPrefix is the fabric directory's path from it), or the
	// fabric directory when no repository is known.
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
	Invocations        []sarifInvocation           `json:"invocations"`
	Results            []sarifResult               `json:"results"`
	Properties         map[string]string           `json:"properties,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

// sarifInvocation is the run's one invocation (SARIF 2.1.0 §3.20).
// executionSuccessful is false when an input could not be read: "The
// presence within this array of any notification object whose level
// property is "error" SHALL mean that the run failed. A SARIF consumer
// SHALL NOT assume that a failed run contains a complete set of analysis
// results" (§3.20.21), which is what an input error means.
type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

// sarifNotification is a condition of the run (§3.58): an input error, a
// note on how the data was obtained, or a finding no file of the
// repository can carry.
type sarifNotification struct {
	Level          string            `json:"level"`
	Message        sarifMessage      `json:"message"`
	Locations      []sarifLocation   `json:"locations,omitempty"`
	AssociatedRule *sarifRuleRef     `json:"associatedRule,omitempty"`
	Properties     *sarifResultProps `json:"properties,omitempty"`
}

// sarifRuleRef is a reportingDescriptorReference (§3.52) to a rule of the
// driver.
type sarifRuleRef struct {
	ID    string `json:"id"`
	Index int    `json:"index"`
}

type sarifRule struct {
	ID                   string        `json:"id"`
	Name                 string        `json:"name"`
	ShortDescription     sarifMessage  `json:"shortDescription"`
	FullDescription      sarifMessage  `json:"fullDescription"`
	HelpURI              string        `json:"helpUri"`
	Help                 sarifHelp     `json:"help"`
	DefaultConfiguration sarifRuleConf `json:"defaultConfiguration"`
}

// sarifHelp is a multiformatMessageString (§3.12): GitHub shows the
// markdown where there is one.
type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
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
// repository root (Report.PathPrefix), with a fingerprint that survives
// line moves. The run's invocation says whether every input was read, and
// holds each input error, each note and each finding no file can carry as
// a notification.
func SARIF(w io.Writer, r *Report) error {
	r.Normalize()
	rules, index := sarifRules(r)
	results, notes, err := sarifResults(r, index)
	if err != nil {
		return err
	}
	version, _, _ := BuildInfo()
	out := sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{{
		Tool: sarifTool{Driver: sarifDriver{Name: "qoslint", Version: version, InformationURI: sarifInfoURI, Rules: rules}},
		// The absolute URI is not known here, and would differ from one
		// checkout to the next; SARIF §3.14.14 lets a base have only a
		// description, and GitHub resolves relative URIs against the
		// repository root.
		OriginalURIBaseIDs: map[string]sarifArtifactLoc{sarifSrcRoot: {Description: &sarifMessage{Text: sarifRootText(r.PathPrefix)}}},
		Invocations:        []sarifInvocation{{ExecutionSuccessful: len(r.Errors) == 0, ToolExecutionNotifications: notes}},
		Results:            results,
		Properties:         map[string]string{"fabric": r.Fabric},
	}}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	// Commands hold ">" and "&": keep them readable, JSON does not need
	// them escaped.
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// sarifRootText describes %SRCROOT%.
func sarifRootText(prefix string) string {
	if prefix == "" {
		return "the fabric directory qoslint read, which file paths are relative to (the repository root when the fabric directory is at its top)"
	}
	return "the repository root; the fabric directory qoslint read is " + prefix
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
		rule.Help.Markdown += "\n\n`qoslint explain " + c.ID + "` prints this."
		rules = append(rules, rule)
	}
	for _, c := range all {
		add(c)
	}
	index[sarifInputRule] = len(rules)
	rules = append(rules, sarifRuleFor(sarifInputRule, judge.Error,
		"A device file could not be read or parsed",
		"An input file was missing where it is required, malformed, not in the inventory, or a device could not be "+
			"collected. The result names the file and line. When the inventory (or the waiver file, or a check name) "+
			"could not be read, nothing was checked; otherwise the rest of the fabric was still checked, but what "+
			"the unread file configures was not: fix the input and run again."))
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

// sarifResults are one result per finding, then one per input error, and
// the run's notifications: every input error, then every note. A finding
// or an input error that no file of the repository can carry (a
// fabric-wide error, a folder of no inventory device) is a notification
// only: GitHub shows no result without a file (microsoft/sarif-sdk
// GH1001), and a result at a file that does not exist would be an alert
// on nothing.
func sarifResults(r *Report, index map[string]int) ([]sarifResult, []sarifNotification, error) {
	fp := sarifFingerprints{}
	results := []sarifResult{}
	var notes []sarifNotification
	for _, f := range r.Findings {
		fix, rb := r.FindingCommands(f)
		idx, ok := index[f.Check]
		if !ok {
			// Every finding comes from the catalog; an unknown ID is a bug
			// that must not make a rule-less result.
			return nil, nil, fmt.Errorf("sarif: finding of unknown check %q", f.Check)
		}
		props := &sarifResultProps{Device: f.Device, Interface: f.Interface, Fix: fix, Rollback: rb}
		locs := r.sarifLocations(f.Device, f.Source)
		if locs == nil {
			// A notification of level "error" would say the run failed
			// (§3.20.21); the finding is a result of a complete run, so
			// its level is at most a warning here, its severity is in the
			// message.
			level := sarifLevel(f.Severity)
			if level == "error" {
				level = "warning"
			}
			notes = append(notes, sarifNotification{
				Level: level, Message: sarifMessage{Text: f.Severity.String() + " " + f.Check + ": " + sarifText(f, fix, rb)},
				AssociatedRule: &sarifRuleRef{ID: f.Check, Index: idx}, Properties: props,
			})
			continue
		}
		res := sarifResult{
			RuleID: f.Check, RuleIndex: idx, Level: sarifLevel(f.Severity),
			Message:             sarifMessage{Text: sarifText(f, fix, rb)},
			Locations:           locs,
			PartialFingerprints: fp.next(f.Check, f.Device, f.Interface, f.Message),
			Properties:          props,
		}
		if f.Waived {
			res.Suppressions = []sarifSuppression{{Kind: "external", Justification: f.WaiverReason}}
		}
		results = append(results, res)
	}
	var errNotes []sarifNotification
	for _, e := range r.Errors {
		locs := r.sarifLocations(e.Device, e.Pos)
		n := sarifNotification{Level: "error", Message: sarifMessage{Text: e.Error()}, Locations: locs}
		if e.Device != "" {
			n.Properties = &sarifResultProps{Device: e.Device}
		}
		errNotes = append(errNotes, n)
		if locs == nil {
			continue
		}
		results = append(results, sarifResult{
			RuleID: sarifInputRule, RuleIndex: index[sarifInputRule], Level: "error",
			Message:             sarifMessage{Text: e.Error()},
			Locations:           locs,
			PartialFingerprints: fp.next(sarifInputRule, e.Device, e.File, e.Msg),
			Properties:          &sarifResultProps{Device: e.Device},
		})
	}
	notes = append(errNotes, notes...)
	for _, n := range r.Notes {
		notes = append(notes, sarifNotification{Level: "note", Message: sarifMessage{Text: n}})
	}
	return results, notes, nil
}

// sarifRuleFor describes a rule. GitHub shows fullDescription and
// help.text (which it requires) beside each alert; the catalog's Doc is
// wrapped for a terminal, so its lines are joined back into paragraphs.
func sarifRuleFor(id string, sev judge.Severity, title, doc string) sarifRule {
	paras := strings.Split(doc, "\n\n")
	for i, p := range paras {
		paras[i] = strings.Join(strings.Fields(p), " ")
	}
	doc = strings.Join(paras, "\n\n")
	md := make([]string, len(paras))
	for i, p := range paras {
		md[i] = markdownEscape(p)
	}
	return sarifRule{
		ID: id, Name: sarifRuleName(id),
		ShortDescription: sarifMessage{Text: clip(title, sarifDescMax)},
		FullDescription:  sarifMessage{Text: clip(doc, sarifDescMax)},
		HelpURI:          sarifHelpURI + "#" + id,
		Help: sarifHelp{Text: doc,
			Markdown: "**" + markdownEscape(title) + "**\n\n" + strings.Join(md, "\n\n")},
		DefaultConfiguration: sarifRuleConf{Level: sarifLevel(sev)},
	}
}

// markdownEscape makes plain text print as itself in Markdown: the Doc
// texts hold "<ibdev>", "$NCCL_CONF_FILE", "~/.nccl.conf" and "*", which
// GitHub would otherwise take for HTML, emphasis or strikethrough. Each
// paragraph is one line that starts with a word, so the characters that
// are special only at a line's start need no escape.
// CommonMark 0.31 §2.4: "Any ASCII punctuation character may be
// backslash-escaped".
func markdownEscape(s string) string {
	const special = "\\`*_[]<>#|~&"
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(special, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
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
// ProvideRuleFriendlyName): switch-roce-mode → SwitchRoceMode. SARIF
// 2.1.0 §3.49.7 makes name "an identifier that is understandable to an end
// user" beside the stable id (§3.49.3), with the example "name":
// "SpecifyMarshalingForPInvokeStringArguments"; derived from the id, it
// never differs from one run to the next.
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
func sarifLevel(s judge.Severity) string {
	switch s {
	case judge.Error:
		return "error"
	case judge.Warning:
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

// sarifLocations points at the evidence file and line, below the
// repository root. GitHub shows no result without a location, so a
// position with no file, or one that names a folder (devices, or a
// device's folder: a file that was not collected, a device that could not
// be reached), points at the device's primary file instead (Device.Primary:
// its configuration, or the inventory entry of a device with no file).
// nil when there is none, or the path is above the repository root.
func (r *Report) sarifLocations(device string, pos source.Pos) []sarifLocation {
	if owner, folder := sarifFolder(pos.File); folder {
		if owner != "" {
			device = owner
		}
		pos = r.primary(device)
	}
	if pos.File == "" {
		return nil
	}
	file := path.Join(r.PathPrefix, pos.File)
	art := sarifArtifactLoc{URI: sarifURI(file), URIBaseID: sarifSrcRoot}
	switch {
	case path.IsAbs(pos.File):
		// A file named on the command line by its absolute path (pcap
		// FILE, --waivers): GitHub docs, "Specifying the root for source
		// files": "If a result contains an absolute URI, the URI is
		// converted to a relative URI"; SARIF §3.4.4: "If the uri property
		// contains an absolute URI, the uriBaseId property SHALL be
		// absent."
		art = sarifArtifactLoc{URI: (&url.URL{Scheme: "file", Path: pos.File}).String()}
	case file == ".." || strings.HasPrefix(file, "../"):
		return nil // above the repository root: no file of it
	}
	loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: art}}
	// GitHub code scanning places an alert only with region.startLine
	// (microsoft/sarif-sdk GH1003.ProvideRequiredRegionProperties). The
	// exact YAML key where the format has columns; a command line is
	// evidence as a whole (column omitted); a whole file anchors at its
	// line 1.
	region := &sarifRegion{StartLine: 1}
	if pos.Line > 0 {
		region = &sarifRegion{StartLine: pos.Line, StartColumn: pos.Column}
	}
	loc.PhysicalLocation.Region = region
	return []sarifLocation{loc}
}

// sarifFolder reports whether file names no file: it is empty, the devices
// folder or a device's folder (owner is then that device).
func sarifFolder(file string) (owner string, folder bool) {
	switch dir, base := path.Split(path.Clean(file)); {
	case file == "" || path.Clean(file) == layout.DevicesDir:
		return "", true
	case dir == layout.DevicesDir+"/":
		return base, true
	}
	return "", false
}

// primary is the primary file of the report's device name.
func (r *Report) primary(name string) source.Pos {
	for _, d := range r.Devices {
		if d.Name == name {
			return d.Primary
		}
	}
	return source.Pos{}
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
