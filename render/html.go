package render

import (
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/qoslint/qoslint/checks"
)

// HTML writes the report as one self-contained page for a customer: a
// summary, a device × check matrix coloured by severity (a table per kind
// of check, a grey "–" where a check did not run), the LLDP topology
// and the RoCE marking chain drawn as inline SVG, then every finding with its evidence, fix and
// rollback. It loads nothing: styles are inline, there is no script, and a
// Content-Security-Policy forbids every fetch, so the file reads the same
// offline, attached to a ticket, as it does here.
func HTML(w io.Writer, r *Report) error {
	r.Normalize()
	return htmlPage.Execute(w, buildHTMLView(r))
}

type htmlView struct {
	Fabric                  string
	InputErrorsNote         string
	Verdict, VerdictDetail  string
	Summary                 string
	Devices, Findings       int
	Errors, Warnings, Infos int
	Waived, InputErrors     int
	FailOn                  string
	Notes                   []string
	InputErrorList          []htmlInputError
	Checks                  []htmlCheck
	Rows                    []htmlRow
	Groups                  []htmlGroup
	DeviceFindings          []htmlDevice
	Plans                   []Plan
	Chain                   *htmlChain
	Topology                *htmlTopo
	Wire                    *htmlWire
	Head                    template.HTML
}

type htmlInputError struct{ Device, Where, Msg string }

type htmlCheck struct {
	ID, Title string
	// Catalog is false for a check only a finding names.
	Catalog bool
}

// htmlGroup is one table of the matrix: the checks of one kind, each
// device's cells of them. One table of the whole catalog is wider than a
// laptop screen, which hid the failing cells at its right behind a
// scrollbar; tables of one kind each fit and wrap side by side.
type htmlGroup struct {
	Name, Title string
	Checks      []htmlCheck
	Rows        []htmlRow
}

// htmlGroupOrder are the matrix's tables in order: the catalog's kinds,
// config split by the device kind it judges, and the families the ID
// prefix names (wire-, ib-, k8s-); "other" holds checks outside the
// catalog (not-collected, the waiver file's own).
var htmlGroupOrder = []struct{ name, title string }{
	{"switch-config", "switch configuration"}, {"host-config", "host configuration"},
	{"topology", "topology"}, {"evidence", "evidence (counters)"}, {"wire", "wire (packet captures)"},
	{"ib", "InfiniBand"}, {"k8s", "Kubernetes"}, {"other", "inputs and waivers"},
}

// htmlGroupOf is the group of check id.
func htmlGroupOf(id string) string {
	c := checks.Lookup(id)
	if c == nil || c == checks.NotCollected {
		return "other"
	}
	for _, p := range []string{"wire", "ib", "k8s"} {
		if strings.HasPrefix(id, p+"-") {
			return p
		}
	}
	switch {
	case c.Kind != checks.KindConfig:
		return string(c.Kind)
	case c.Devices == checks.Switches:
		return "switch-config"
	}
	return "host-config"
}

// htmlGroups cuts the matrix's columns (and each row's cells) into the
// groups that have a column.
func htmlGroups(cols []htmlCheck, rows []htmlRow) []htmlGroup {
	var out []htmlGroup
	for _, g := range htmlGroupOrder {
		var idx []int
		for i, c := range cols {
			if htmlGroupOf(c.ID) == g.name {
				idx = append(idx, i)
			}
		}
		if len(idx) == 0 {
			continue
		}
		grp := htmlGroup{Name: g.name, Title: g.title}
		for _, i := range idx {
			grp.Checks = append(grp.Checks, cols[i])
		}
		for _, row := range rows {
			gr := row
			gr.Cells = nil
			for _, i := range idx {
				gr.Cells = append(gr.Cells, row.Cells[i])
			}
			grp.Rows = append(grp.Rows, gr)
		}
		out = append(out, grp)
	}
	return out
}

type htmlRow struct {
	Device, Kind string
	InputErrors  int
	Cells        []htmlCell
}

// htmlCell is one device × check: Severity is the worst finding that is
// not waived, "waived" when all are, "ok" when there is none, and "n/a"
// when the check does not look at this kind of device.
type htmlCell struct {
	Check, Severity string
	Count, Waived   int
	Anchor, Title   string
}

type htmlDevice struct {
	Name, Kind string
	Findings   []htmlFinding
}

type htmlFinding struct {
	ID                         string
	Check, Severity, Device    string
	Interface, Message         string
	Expected, Actual, Evidence string
	Waived                     bool
	WaiverReason               string
	Fix, Rollback              []string
}

func buildHTMLView(r *Report) *htmlView {
	word, detail := verdict(r)
	v := &htmlView{
		Fabric: r.fabricName(), InputErrorsNote: r.inputErrorsNote(), Verdict: word, VerdictDetail: detail, Summary: summary(r),
		Devices: len(r.Devices), Findings: len(r.Findings), InputErrors: len(r.Errors),
		FailOn: r.FailOnName(), Notes: r.Notes, Plans: r.Plans,
		Head: HTMLHead("qoslint: fabric "+r.fabricName(), htmlCSS),
	}
	for _, f := range r.Findings {
		switch {
		case f.Waived:
			v.Waived++
		case f.Severity == checks.Error:
			v.Errors++
		case f.Severity == checks.Warning:
			v.Warnings++
		default:
			v.Infos++
		}
	}
	errsBy := map[string]int{}
	for _, e := range r.Errors {
		errsBy[e.Device]++
		v.InputErrorList = append(v.InputErrorList, htmlInputError{Device: e.Device, Where: e.Pos.String(), Msg: e.Msg})
	}
	v.Checks = htmlChecks(r)
	v.Rows, v.DeviceFindings = htmlMatrix(r, v.Checks, errsBy)
	v.Groups = htmlGroups(v.Checks, v.Rows)
	if r.Chain != nil {
		v.Chain = layoutChain(r.Chain)
	}
	if r.Topology != nil {
		v.Topology = layoutTopology(r.Topology, r.Findings)
	}
	if r.Wire != nil {
		v.Wire = layoutWire(r.Wire)
	}
	return v
}

// htmlChecks are the matrix columns: the catalog in its order, then any
// other check a finding names, so no finding is left out of the matrix.
func htmlChecks(r *Report) []htmlCheck {
	var out []htmlCheck
	known := map[string]bool{}
	for _, c := range checks.All() {
		out = append(out, htmlCheck{ID: c.ID, Title: c.Title, Catalog: true})
		known[c.ID] = true
	}
	for _, id := range r.unlisted(known, func(f *checks.Finding) string { return f.Check }) {
		out = append(out, htmlCheck{ID: id})
	}
	return out
}

// checkApplies says whether a check looks at a kind of device, as the
// catalog records it (Check.Devices); checks outside the catalog (waiver)
// apply everywhere.
func checkApplies(id, kind string) bool {
	if kind == "" {
		return false
	}
	if c := checks.Lookup(id); c != nil {
		return c.Devices.Has(kind)
	}
	return true
}

var sevRank = map[string]int{"n/a": 0, "ok": 1, "waived": 2, "info": 3, "warning": 4, "error": 5}

func htmlMatrix(r *Report, cols []htmlCheck, errsBy map[string]int) ([]htmlRow, []htmlDevice) {
	cells, byDevice := htmlCells(r)
	sk := r.statusIndex()
	var rows []htmlRow
	var devs []htmlDevice
	// A finding on a device the report does not list still gets a row.
	for _, d := range r.Sections() {
		row := htmlRow{Device: d.Name, Kind: d.Kind, InputErrors: errsBy[d.Name]}
		for _, col := range cols {
			if c := cells[cellKey{d.Name, col.ID}]; c != nil {
				row.Cells = append(row.Cells, *c)
				continue
			}
			sev, title := "ok", col.ID+": no finding"
			switch {
			case !col.Catalog:
				// A check outside the catalog (the waiver file's own)
				// speaks only where it has findings.
				sev, title = "n/a", col.ID+": no finding here"
			case !checkApplies(col.ID, d.Kind):
				sev, title = "n/a", col.ID+" does not look at "+d.Name
			case sk.skipped(d.Name, col.ID) != nil:
				// Not passed: the check did not run here.
				sev, title = "skipped", col.ID+" skipped, "+sk.skipped(d.Name, col.ID).SkipText()
			}
			row.Cells = append(row.Cells, htmlCell{Check: col.ID, Severity: sev, Title: title})
		}
		rows = append(rows, row)
		if fs := byDevice[d.Name]; len(fs) > 0 {
			devs = append(devs, htmlDevice{Name: d.Name, Kind: d.Kind, Findings: fs})
		}
	}
	return rows, devs
}

type cellKey struct{ device, check string }

// htmlCells are the matrix cells that have findings, and the findings by
// device: a cell shows its worst finding, counts them, and lists them all
// in its title.
func htmlCells(r *Report) (map[cellKey]*htmlCell, map[string][]htmlFinding) {
	cells := map[cellKey]*htmlCell{}
	byDevice := map[string][]htmlFinding{}
	for i, f := range r.Findings {
		fix, rb := r.FindingCommands(f)
		hf := htmlFinding{
			ID: fmt.Sprintf("f-%d", i+1), Check: f.Check, Severity: f.Severity.String(), Device: f.Device,
			Interface: f.Interface, Message: f.Message, Expected: f.Expected, Actual: f.Actual,
			Evidence: f.Source.String(), Waived: f.Waived, WaiverReason: f.WaiverReason, Fix: fix, Rollback: rb,
		}
		byDevice[f.Device] = append(byDevice[f.Device], hf)
		k := cellKey{f.Device, f.Check}
		c := cells[k]
		if c == nil {
			c = &htmlCell{Check: f.Check, Severity: "ok", Anchor: hf.ID}
			cells[k] = c
		}
		sev := hf.Severity
		if f.Waived {
			c.Waived++
			sev = "waived"
		} else {
			c.Count++
		}
		if sevRank[sev] > sevRank[c.Severity] {
			c.Severity = sev
		}
		line := hf.Severity + ": " + f.Message
		if f.Interface != "" {
			line = hf.Severity + " " + f.Interface + ": " + f.Message
		}
		if f.Waived {
			line = "waived " + line
		}
		if c.Title != "" {
			c.Title += "\n"
		}
		c.Title += line
	}
	return cells, byDevice
}

// The chain drawing. Coordinates are computed here, not in the template,
// and text is cut to what its box holds (the full text is in the box's
// <title> tooltip), so the picture does not depend on a font's metrics.
const (
	svgPad       = 12
	svgNameW     = 132
	svgBoxW      = 160
	svgBoxH      = 34
	svgGap       = 24
	svgRowH      = 68
	svgHeadH     = 34
	svgSwW       = 72
	svgSwGap     = 6
	svgMaxSwitch = 8 // more switches than this are drawn as one box
	// Characters that fit: 12px monospace is about 7.2px a character,
	// 11px about 6.6px.
	svgLabelMax = 21
	svgShortMax = 23
	svgNameMax  = 17
	svgSwMax    = 9
)

type htmlChain struct {
	Caption       string
	Width, Height int
	HostHead      []svgText
	SwitchHead    []svgText
	SwitchTop     int // y of the switch section's separator
	NICs          []svgRow
	Switches      []svgRow
}

type svgText struct {
	X, Y int
	Text string
}

type svgRow struct {
	// Device and Sub name the row (host and netdev, switch and ports).
	Device, Sub       string
	DeviceText        svgText
	SubText           svgText
	SubTitle          string
	Status            string
	Hops              []svgHop
	Arrows            []svgArrow
	SwitchBoxes       []svgHop // host rows: the switches the NIC sends to
	SwitchArrow       *svgArrow
	SwitchStripLabelY int
}

type svgHop struct {
	Name, Status, Check string
	X, Y, W, H          int
	TextX, TextY        int
	Label, Short        string
	ShortY              int
	Title               string
}

type svgArrow struct {
	X1, Y, X2 int
	Lost      bool // drawn after a broken hop: the mark is already lost
}

func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func hopBox(h Hop, x, y int) svgHop {
	title := h.Label
	if h.Reason != "" {
		title += ": " + h.Reason
	}
	if h.Check != "" {
		title += " [" + h.Check + "]"
	}
	return svgHop{
		Name: h.Name, Status: string(h.Status), Check: h.Check,
		X: x, Y: y, W: svgBoxW, H: svgBoxH, TextX: x + svgBoxW/2, TextY: y + svgBoxH/2 + 4,
		Label: cut(h.Label, svgLabelMax), Short: cut(h.Short, svgShortMax), ShortY: y + svgBoxH + 15,
		Title: title,
	}
}

// hopRow lays out a row of hops after the name column, with an arrow
// between each two; arrows after the first broken hop are marked lost.
func hopRow(hops []Hop, y int) ([]svgHop, []svgArrow, int) {
	var out []svgHop
	var arrows []svgArrow
	x := svgPad + svgNameW
	lost := false
	for i, h := range hops {
		if i > 0 {
			arrows = append(arrows, svgArrow{X1: x - svgGap + 2, Y: y + svgBoxH/2, X2: x - 4, Lost: lost})
		}
		out = append(out, hopBox(h, x, y))
		lost = lost || h.Status == HopBroken
		x += svgBoxW + svgGap
	}
	return out, arrows, x
}

func layoutChain(c *MarkingChain) *htmlChain {
	mode := "lossless"
	if !c.Lossless {
		mode = "lossy"
	}
	hc := &htmlChain{Caption: fmt.Sprintf("Following RoCE DSCP %d (ToS %d) → priority %d → traffic class %d, %s.",
		c.DSCP, c.ToS, c.Priority, c.TrafficClass, mode)}
	y, width := layoutNICRows(hc, c, switchStatuses(c))
	y, width = layoutSwitchRows(hc, c, y, width)
	hc.Width, hc.Height = width+svgPad, y
	return hc
}

// swStat is one switch's status, the worst of its port groups, for the
// strip every host row ends in.
type swStat struct {
	name, status string
	why          []string
}

func switchStatuses(c *MarkingChain) []*swStat {
	var sws []*swStat
	idx := map[string]*swStat{}
	for _, s := range c.Switches {
		st := idx[s.Switch]
		if st == nil {
			st = &swStat{name: s.Switch, status: string(HopOK)}
			idx[s.Switch] = st
			sws = append(sws, st)
		}
		if sevRank[hopRank(s.Status())] > sevRank[hopRank(HopStatus(st.status))] {
			st.status = string(s.Status())
		}
		for _, h := range s.Hops {
			if h.Status != HopOK {
				where := s.Switch
				if s.Ports != "" {
					where += " " + s.Ports
				}
				st.why = append(st.why, where+": "+h.Reason)
			}
		}
	}
	return sws
}

// layoutNICRows lays out the host half: one row per NIC, ending in the
// switch strip. It returns the next row's y and the width used.
func layoutNICRows(hc *htmlChain, c *MarkingChain, sws []*swStat) (y, width int) {
	cols := []string{"sender ToS → DSCP", "NIC priority", "NIC PFC", "NIC DCQCN", "switches"}
	for i, t := range cols {
		hc.HostHead = append(hc.HostHead, svgText{X: svgPad + svgNameW + i*(svgBoxW+svgGap), Y: 22, Text: t})
	}
	hc.HostHead = append([]svgText{{X: svgPad, Y: 22, Text: "host NIC"}}, hc.HostHead...)
	y = svgHeadH
	for _, n := range c.NICs {
		row := svgRow{
			Device: n.Host, Sub: n.Netdev, Status: string(n.Status()),
			DeviceText: svgText{X: svgPad, Y: y + 15, Text: cut(n.Host, svgNameMax)},
			SubText:    svgText{X: svgPad, Y: y + 31, Text: cut(n.Netdev, svgNameMax)},
			SubTitle:   n.Host + " " + n.Netdev,
		}
		var x int
		row.Hops, row.Arrows, x = hopRow(n.Hops, y)
		lost := false
		for _, h := range n.Hops {
			lost = lost || h.Status == HopBroken
		}
		row.SwitchArrow = &svgArrow{X1: x - svgGap + 2, Y: y + svgBoxH/2, X2: x - 4, Lost: lost}
		row.SwitchBoxes, x = switchStrip(sws, x, y)
		width = max(width, x)
		hc.NICs = append(hc.NICs, row)
		y += svgRowH
	}
	return y, width
}

// switchStrip is the switches a host row ends in: one box each, or one
// box for all when there are more than svgMaxSwitch.
func switchStrip(sws []*swStat, x, y int) ([]svgHop, int) {
	var boxes []svgHop
	if len(sws) > svgMaxSwitch {
		broken := 0
		status := HopOK
		var why []string
		for _, s := range sws {
			if s.status == string(HopBroken) {
				broken++
			}
			if sevRank[hopRank(HopStatus(s.status))] > sevRank[hopRank(status)] {
				status = HopStatus(s.status)
			}
			why = append(why, s.why...)
		}
		box := hopBox(Hop{Name: "switches", Status: status, Label: fmt.Sprintf("%d switches, %d broken", len(sws), broken),
			Reason: strings.Join(why, "; ")}, x, y)
		return append(boxes, box), x + svgBoxW
	}
	for _, s := range sws {
		b := svgHop{Name: s.name, Status: s.status, X: x, Y: y, W: svgSwW, H: svgBoxH,
			TextX: x + svgSwW/2, TextY: y + svgBoxH/2 + 4, Label: cut(s.name, svgSwMax), Title: s.name + ": all hops keep the mark"}
		if len(s.why) > 0 {
			b.Title = strings.Join(s.why, "\n")
		}
		boxes = append(boxes, b)
		x += svgSwW + svgSwGap
	}
	return boxes, x
}

// layoutSwitchRows lays out the switch half below the host half, one row
// per port group.
func layoutSwitchRows(hc *htmlChain, c *MarkingChain, y, width int) (int, int) {
	hc.SwitchTop = y + 4
	y += 16
	for i, t := range []string{"switch ports", "DSCP → switch priority", "switch PFC", "egress traffic class", "switch ECN"} {
		x := svgPad
		if i > 0 {
			x = svgPad + svgNameW + (i-1)*(svgBoxW+svgGap)
		}
		hc.SwitchHead = append(hc.SwitchHead, svgText{X: x, Y: y + 22, Text: t})
	}
	y += svgHeadH
	for _, s := range c.Switches {
		ports := s.Ports
		if ports == "" {
			ports = "all ports"
		}
		row := svgRow{
			Device: s.Switch, Sub: s.Ports, Status: string(s.Status()),
			DeviceText: svgText{X: svgPad, Y: y + 15, Text: cut(s.Switch, svgNameMax)},
			SubText:    svgText{X: svgPad, Y: y + 31, Text: cut(ports, svgNameMax)},
			SubTitle:   s.Switch + " " + ports,
		}
		var x int
		row.Hops, row.Arrows, x = hopRow(s.Hops, y)
		width = max(width, x-svgGap)
		hc.Switches = append(hc.Switches, row)
		y += svgRowH
	}
	return y, width
}

// hopRank maps a hop status onto the severity ranks, so one comparison
// serves both.
func hopRank(s HopStatus) string {
	switch s {
	case HopBroken:
		return "error"
	case HopUnknown:
		return "info"
	}
	return "ok"
}

var htmlPage = template.Must(template.New("html").Parse(htmlTemplate))

// htmlTemplate is the page. Stable ids and classes for tests and for
// people who restyle it: #summary, #notes, #input-errors, #matrix
// (div.matrix-group[data-group], one table.matrix[data-group] per kind of
// check, td[data-device][data-check][data-severity]; data-severity
// "skipped" is a check that did not run, its title the reason), #topology
// (g.device[data-device][data-kind][data-tier], g.link[data-link]
// [data-verdict][data-lldp] (data-lldp is "both" or "one-sided": an
// attribute named data-on… would be escaped as a script handler), p.no-lldp when nothing is drawn), #chain
// (g.hop[data-hop][data-status]), #findings (article.finding), #plans.
// htmlCSS styles the report page (HTMLHead puts it in the page's head).
const htmlCSS = `:root{--err:#c5221f;--err-bg:#fce8e6;--warn:#a35200;--warn-bg:#fef0d9;--info:#1a5fb4;--info-bg:#e3eefc;--ok:#137333;--ok-bg:#e6f4ea;--na:#9aa0a6;--na-bg:#f4f5f6;--line:#dadce0;--fg:#202124;--muted:#5f6368}
*{box-sizing:border-box}
body{margin:0;padding:24px 32px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--fg);background:#fff}
h1{font-size:22px;margin:0 0 12px}
h2{font-size:18px;margin:28px 0 10px;padding-bottom:4px;border-bottom:1px solid var(--line)}
h3{font-size:15px;margin:18px 0 8px}
code,pre{font:12.5px/1.4 ui-monospace,"DejaVu Sans Mono","Liberation Mono",monospace}
pre{margin:4px 0;padding:8px 10px;background:#f6f8fa;border:1px solid var(--line);border-radius:4px;white-space:pre-wrap;word-break:break-all}
.verdict{display:inline-block;padding:2px 10px;border-radius:4px;font-weight:700;color:#fff}
.verdict-PASS{background:var(--ok)}.verdict-FAIL{background:var(--err)}.verdict-INCOMPLETE{background:var(--warn)}
#summary .counts{display:flex;gap:12px;list-style:none;padding:0;margin:12px 0 0;flex-wrap:wrap}
#summary .counts li{padding:8px 14px;border-radius:6px;border:1px solid var(--line);min-width:110px}
#summary .counts b{display:block;font-size:22px}
.sev-error{background:var(--err-bg);color:var(--err)}.sev-warning{background:var(--warn-bg);color:var(--warn)}
.sev-info{background:var(--info-bg);color:var(--info)}.sev-ok{background:var(--ok-bg);color:var(--ok)}
.sev-n\/a{background:var(--na-bg);color:var(--na)}
.sev-skipped{background:var(--na-bg);color:var(--muted)}
.sev-waived{background:repeating-linear-gradient(135deg,#eceff1 0 6px,#f8f9fa 6px 12px);color:var(--muted)}
.muted{color:var(--muted)}
table.matrix{border-collapse:collapse;margin-top:8px}
.matrix-groups{display:flex;flex-wrap:wrap;gap:8px 24px;align-items:flex-start}
.matrix-group h3{margin:10px 0 0}
table.matrix th,table.matrix td{border:1px solid var(--line);padding:3px 6px;text-align:center}
table.matrix thead th{vertical-align:bottom;font-weight:600;font-size:12px}
table.matrix thead th span{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap}
table.matrix th.device{text-align:left;white-space:nowrap}
table.matrix td{min-width:30px;height:28px;font-weight:600}
table.matrix td a{color:inherit;text-decoration:none;display:block}
.kind{font-weight:400;color:var(--muted);font-size:12px}
.badge{display:inline-block;padding:0 6px;border-radius:3px;font-size:12px;font-weight:600}
.legend{display:flex;gap:10px;flex-wrap:wrap;margin:8px 0;font-size:12px}
.legend span{padding:2px 8px;border-radius:3px;border:1px solid var(--line)}
#topology .topo-wrap{overflow-x:auto}
#topology svg{border:1px solid var(--line);border-radius:6px;background:#fff}
#topology text{font:12px ui-monospace,"DejaVu Sans Mono","Liberation Mono",monospace;fill:var(--fg);text-anchor:middle}
#topology text.tier{font:600 12px system-ui,"DejaVu Sans",sans-serif;fill:var(--muted);text-anchor:start}
#topology .device rect{fill:#f1f3f4;stroke:#5f6368;stroke-width:1.5;rx:5}
#topology .device-switch rect{fill:#e8f0fe;stroke:var(--info)}
#topology .link path{fill:none;stroke:#9aa0a6;stroke-width:2}
#topology .link-warning path{stroke:var(--warn);stroke-width:3}
#topology .link-error path{stroke:var(--err);stroke-width:3.5}
#topology .one-sided path{stroke-dasharray:7 5}
#topology .legend .lk{display:inline-block;width:28px;height:0;border-top:3px solid #9aa0a6;vertical-align:middle;margin-right:4px}
#topology .legend .lk-error{border-top-color:var(--err)}#topology .legend .lk-warning{border-top-color:var(--warn)}
#topology .legend .lk-one-sided{border-top-style:dashed}
#chain svg{max-width:100%;height:auto;border:1px solid var(--line);border-radius:6px;background:#fff}
#chain text{font:12px ui-monospace,"DejaVu Sans Mono","Liberation Mono",monospace;fill:var(--fg)}
#chain text.head{font:600 12px system-ui,"DejaVu Sans",sans-serif;fill:var(--muted)}
#chain text.name{font-weight:700}
#chain text.label{text-anchor:middle}
#chain text.short{font-size:11px;fill:var(--err);text-anchor:middle;font-weight:700}
#chain .hop-unknown text.short{fill:var(--muted)}
#chain rect{stroke-width:1.5;rx:5}
#chain .hop-ok rect{fill:var(--ok-bg);stroke:var(--ok)}
#chain .hop-broken rect{fill:var(--err-bg);stroke:var(--err);stroke-width:2.5}
#chain .hop-unknown rect{fill:var(--na-bg);stroke:var(--na);stroke-dasharray:4 3}
#chain line.arrow{stroke:#80868b;stroke-width:1.5}
#chain line.lost{stroke:var(--err);stroke-dasharray:5 4}
#chain line.sep{stroke:var(--line)}
.finding{border:1px solid var(--line);border-left-width:5px;border-radius:4px;padding:8px 12px;margin:10px 0}
.finding[data-severity=error]{border-left-color:var(--err)}.finding[data-severity=warning]{border-left-color:var(--warn)}
.finding[data-severity=info]{border-left-color:var(--info)}
.finding.waived{border-left-color:var(--na);background:#fafafa}
.finding header{display:flex;gap:8px;align-items:baseline;flex-wrap:wrap}
.finding .message{margin:6px 0}
.finding dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:6px 0}
.finding dt{color:var(--muted)}.finding dd{margin:0}
.commands{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.commands h4{margin:6px 0 0;font-size:12px;color:var(--muted);font-weight:600}
.waiver{color:var(--muted);font-style:italic}
footer{margin-top:32px;color:var(--muted);font-size:12px}
.capture{margin:12px 0 24px}
.charts{display:flex;flex-wrap:wrap;gap:16px}
.chart h4{margin:4px 0;font-size:12px;color:var(--muted);font-weight:600}
.chart text{font-size:12px;fill:var(--fg)}
.chart rect.bar-want{fill:var(--ok)}
.chart rect.bar-other{fill:var(--err)}
table.flows{border-collapse:collapse;font-size:12px;margin-top:8px}
table.flows th,table.flows td{border:1px solid var(--line);padding:2px 6px;text-align:left}
table.flows td.num{text-align:right}`

const htmlTemplate = `{{.Head}}<body>
<h1>qoslint: fabric <code>{{.Fabric}}</code></h1>

<section id="summary" data-verdict="{{.Verdict}}" data-devices="{{.Devices}}" data-findings="{{.Findings}}" data-errors="{{.Errors}}" data-warnings="{{.Warnings}}" data-info="{{.Infos}}" data-waived="{{.Waived}}" data-input-errors="{{.InputErrors}}">
<p><span class="verdict verdict-{{.Verdict}}">{{.Verdict}}</span> {{.Summary}}; {{.VerdictDetail}}.</p>
<ul class="counts">
<li class="sev-error"><b>{{.Errors}}</b>errors</li>
<li class="sev-warning"><b>{{.Warnings}}</b>warnings</li>
<li class="sev-info"><b>{{.Infos}}</b>info</li>
<li class="sev-waived"><b>{{.Waived}}</b>waived</li>
<li class="{{if .InputErrors}}sev-warning{{else}}sev-ok{{end}}"><b>{{.InputErrors}}</b>input errors</li>
<li><b>{{.Devices}}</b>devices</li>
</ul>
</section>
{{if .Notes}}
<section id="notes">
<h2>Notes</h2>
<ul>{{range .Notes}}
<li>{{.}}</li>{{end}}
</ul>
</section>
{{end}}{{if .InputErrorList}}
<section id="input-errors">
<h2>Input errors</h2>
<p class="muted">These files could not be read; {{.InputErrorsNote}}.</p>
<ul>{{range .InputErrorList}}
<li class="input-error" data-device="{{.Device}}">{{if .Device}}<b>{{.Device}}</b>: {{end}}{{if .Where}}<code>{{.Where}}</code>: {{end}}{{.Msg}}</li>{{end}}
</ul>
</section>
{{end}}
<section id="matrix">
<h2>Devices × checks</h2>
<div class="legend"><span class="sev-error">error</span><span class="sev-warning">warning</span><span class="sev-info">info</span><span class="sev-waived">waived</span><span class="sev-ok">✓ ran, no finding</span><span class="sev-skipped">– skipped: not collected, not applicable or disabled (hover for why)</span><span class="sev-n/a">· not for this kind of device</span></div>
<div class="matrix-groups">{{range .Groups}}
<div class="matrix-group" data-group="{{.Name}}">
<h3>{{.Title}}</h3>
<table class="matrix" data-group="{{.Name}}">
<thead><tr><th class="device">device</th>{{range .Checks}}<th data-check="{{.ID}}" title="{{.Title}}"><span>{{.ID}}</span></th>{{end}}</tr></thead>
<tbody>{{range .Rows}}
<tr data-device="{{.Device}}"><th class="device">{{.Device}} <span class="kind">{{.Kind}}</span>{{if .InputErrors}} <span class="badge sev-warning" title="see input errors">{{.InputErrors}} input error{{if ne .InputErrors 1}}s{{end}}</span>{{end}}</th>
{{- $d := .Device}}{{range .Cells}}<td class="sev-{{.Severity}}" data-device="{{$d}}" data-check="{{.Check}}" data-severity="{{.Severity}}" title="{{.Title}}">
{{- if .Anchor}}<a href="#{{.Anchor}}">{{if .Count}}{{.Count}}{{end}}{{if .Waived}}{{if .Count}}+{{end}}{{.Waived}}w{{end}}</a>
{{- else if eq .Severity "ok"}}✓{{else if eq .Severity "skipped"}}–{{else}}·{{end}}</td>{{end}}</tr>{{end}}
</tbody>
</table>
</div>{{end}}
</div>
</section>
{{with .Topology}}
<section id="topology">
<h2>Topology (LLDP)</h2>
{{- if .Absent}}
<p class="no-lldp">{{.Absent}}</p>
{{- else}}
<p>The cables LLDP reports between inventory devices, tiers from the inventory roles (hosts at the bottom). A link is red when a topology check (cabling, rail-alignment, link-mtu, link-qos, link-pfc) has an error naming either end, amber for a warning, grey otherwise; dashed when only one end's LLDP reports it. Hover a link for its findings. {{.Counts}}</p>
<div class="legend"><span><i class="lk lk-error"></i>error</span><span><i class="lk lk-warning"></i>warning</span><span><i class="lk"></i>info or no finding</span><span><i class="lk lk-one-sided"></i>one-sided</span></div>
{{- if .Aggregated}}
<p class="aggregated">{{.Aggregated}}</p>
{{- end}}
<div class="topo-wrap">
<svg role="img" aria-label="fabric topology" width="{{.Width}}" height="{{.Height}}" viewBox="0 0 {{.Width}} {{.Height}}">
{{- range .Labels}}
<text class="tier" x="{{.X}}" y="{{.Y}}">{{.Text}}</text>
{{- end}}
<g class="links">
{{- range .Links}}
<g class="link link-{{.Verdict}}{{if .OneSided}} one-sided{{end}}" data-link="{{.ID}}" data-verdict="{{.Verdict}}" data-lldp="{{if .OneSided}}one-sided{{else}}both{{end}}"{{if gt .Count 1}} data-count="{{.Count}}"{{end}}><title>{{.Title}}</title><path d="{{.Path}}"></path></g>
{{- end}}
</g>
<g class="devices">
{{- range .Devices}}
<g class="device device-{{.Kind}}" data-device="{{.Name}}" data-kind="{{.Kind}}" data-tier="{{.Tier}}"><title>{{.Title}}</title><rect x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}"></rect><text x="{{.TextX}}" y="{{.TextY}}">{{.Label}}</text></g>
{{- end}}
</g>
</svg>
</div>
{{- if .Listed}}
<ul class="topo-links">
{{- range .Listed}}
<li class="link-{{.Verdict}}" data-link="{{.ID}}" data-verdict="{{.Verdict}}"><pre>{{.Title}}</pre></li>
{{- end}}
</ul>
{{- if .More}}
<p>… and {{.More}} more: see the findings.</p>
{{- end}}
{{- end}}
{{- end}}
</section>
{{end}}{{with .Chain}}
<section id="chain">
<h2>RoCE marking chain</h2>
<p>{{.Caption}} Each box is one hop: green keeps the mark, <b style="color:var(--err)">red loses it</b> (the reason is under the box; hover for the evidence), grey could not be checked. A dashed red arrow follows a hop where the mark is already lost.</p>
<svg role="img" aria-label="RoCE marking chain" width="{{.Width}}" height="{{.Height}}" viewBox="0 0 {{.Width}} {{.Height}}">
<defs><marker id="arrowhead" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#80868b"></path></marker><marker id="arrowhead-lost" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#c5221f"></path></marker></defs>
<g class="section-hosts">{{range .HostHead}}
<text class="head" x="{{.X}}" y="{{.Y}}">{{.Text}}</text>{{end}}
{{range .NICs}}{{template "row" .}}{{end}}</g>
<line class="sep" x1="0" y1="{{.SwitchTop}}" x2="{{.Width}}" y2="{{.SwitchTop}}"></line>
<g class="section-switches">{{range .SwitchHead}}
<text class="head" x="{{.X}}" y="{{.Y}}">{{.Text}}</text>{{end}}
{{range .Switches}}{{template "row" .}}{{end}}</g>
</svg>
</section>
{{end}}{{with .Wire}}
<section id="wire">
<h2>Packet captures</h2>
<p>The RoCEv2 flows of each capture (source, destination and destination QP), with the DSCP and ECN of their data packets. A green bar is a value the policy wants (the RoCE DSCP; ECT(0), ECT(1) or CE), a red bar any other.</p>
{{- range .Captures}}
<section class="capture" data-file="{{.File}}" data-device="{{.Device}}" data-flows="{{len .Flows}}" data-roce="{{.RoCE}}">
<h3><code>{{.File}}</code>{{if .Device}} <span class="kind">{{.Device}}</span>{{end}}</h3>
<p class="muted">{{.Format}}, {{.Frames}} packets, {{.RoCE}} RoCEv2, {{len .Flows}} flows.</p>
<div class="charts">
{{- range .Charts}}
<div class="chart"><h4>{{.Title}}</h4>
<svg role="img" aria-label="{{.Title}}" width="{{.Width}}" height="{{.Height}}" viewBox="0 0 {{.Width}} {{.Height}}">
{{- range .Bars}}
<g class="bar" data-value="{{.Label}}" data-count="{{.Count}}" data-class="{{.Class}}"><title>{{.Label}}: {{.Count}}</title><text x="0" y="{{.LabelY}}">{{.Label}}</text><rect class="bar-{{.Class}}" x="{{.BarTo}}" y="{{.Y}}" width="{{.W}}" height="14"></rect><text x="{{.TextX}}" y="{{.LabelY}}">{{.Count}}</text></g>
{{- end}}
</svg></div>
{{- end}}
</div>
{{- if .Shown}}
<table class="flows">
<thead><tr><th>source</th><th>destination</th><th>dest QP</th><th>data packets</th><th>DSCP</th><th>ECN</th><th>CNPs</th><th>UDP source ports</th></tr></thead>
<tbody>
{{- range .Shown}}
<tr class="flow" data-src="{{.Src}}" data-dst="{{.Dst}}" data-qp="{{printf "%#x" .QP}}"><td>{{.Src}}</td><td>{{.Dst}}</td><td class="num">{{printf "%#x" .QP}}</td><td class="num">{{.Packets}}</td><td>{{.DSCP}}</td><td>{{.ECN}}</td><td class="num">{{.CNPs}}</td><td>{{.Ports}}</td></tr>
{{- end}}
</tbody>
</table>
{{- if .More}}
<p>… and {{.More}} more flows.</p>
{{- end}}
{{- end}}
</section>
{{- end}}
</section>
{{end}}
<section id="findings">
<h2>Findings</h2>
{{- if not .DeviceFindings}}
<p>No findings.</p>
{{- end}}
{{- range .DeviceFindings}}
<section class="device" data-device="{{.Name}}">
<h3>{{.Name}} <span class="kind">{{.Kind}}</span></h3>
{{- range .Findings}}
<article class="finding{{if .Waived}} waived{{end}}" id="{{.ID}}" data-check="{{.Check}}" data-device="{{.Device}}" data-severity="{{.Severity}}" data-waived="{{.Waived}}">
<header><span class="badge sev-{{.Severity}}">{{.Severity}}</span>{{if .Waived}} <span class="badge sev-waived">waived</span>{{end}} <code>{{.Check}}</code>{{if .Interface}} <code class="iface">{{.Interface}}</code>{{end}}</header>
<p class="message">{{.Message}}</p>
{{- if .Waived}}
<p class="waiver">waived: {{.WaiverReason}}</p>
{{- end}}
<dl>
{{- if .Expected}}<dt>expected</dt><dd class="expected">{{.Expected}}</dd>{{end}}
{{- if .Actual}}<dt>actual</dt><dd class="actual">{{.Actual}}</dd>{{end}}
{{- if .Evidence}}<dt>evidence</dt><dd class="evidence"><code>{{.Evidence}}</code></dd>{{end}}
</dl>
{{- if .Fix}}
<div class="commands"><div><h4>fix</h4><pre class="fix">{{range $i, $l := .Fix}}{{if $i}}
{{end}}{{$l}}{{end}}</pre></div><div><h4>rollback</h4><pre class="rollback">{{range $i, $l := .Rollback}}{{if $i}}
{{end}}{{$l}}{{end}}</pre></div></div>
{{- end}}
</article>
{{- end}}
</section>
{{- end}}
</section>
{{if .Plans}}
<section id="plans">
<h2>Fix plans</h2>
{{- range .Plans}}
<section class="plan" data-device="{{.Device}}">
<h3>{{.Device}} <span class="kind">{{.Kind}}</span></h3>
<p class="muted">checks {{range $i, $c := .Checks}}{{if $i}}, {{end}}<code>{{$c}}</code>{{end}}</p>
<div class="commands"><div><h4>fix</h4><pre class="fix">{{range $i, $l := .Fix}}{{if $i}}
{{end}}{{$l}}{{end}}</pre></div><div><h4>rollback</h4><pre class="rollback">{{range $i, $l := .Rollback}}{{if $i}}
{{end}}{{$l}}{{end}}</pre></div></div>
</section>
{{- end}}
</section>
{{end}}
<footer>Generated by qoslint; fail-on {{.FailOn}}. This page is self-contained: it loads nothing.</footer>
</body>
</html>
{{define "row"}}<g class="row row-{{.Status}}" data-device="{{.Device}}" data-sub="{{.Sub}}" data-status="{{.Status}}">
<text class="name" x="{{.DeviceText.X}}" y="{{.DeviceText.Y}}">{{.DeviceText.Text}}</text>
<text x="{{.SubText.X}}" y="{{.SubText.Y}}"><title>{{.SubTitle}}</title>{{.SubText.Text}}</text>
{{- range .Arrows}}
<line class="arrow{{if .Lost}} lost{{end}}" x1="{{.X1}}" y1="{{.Y}}" x2="{{.X2}}" y2="{{.Y}}" marker-end="url(#arrowhead{{if .Lost}}-lost{{end}})"></line>{{end}}
{{- range .Hops}}{{template "hop" .}}{{end}}
{{- with .SwitchArrow}}
<line class="arrow{{if .Lost}} lost{{end}}" x1="{{.X1}}" y1="{{.Y}}" x2="{{.X2}}" y2="{{.Y}}" marker-end="url(#arrowhead{{if .Lost}}-lost{{end}})"></line>{{end}}
{{- range .SwitchBoxes}}
<g class="switch hop-{{.Status}}" data-switch="{{.Name}}" data-status="{{.Status}}"><title>{{.Title}}</title><rect x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}"></rect><text class="label" x="{{.TextX}}" y="{{.TextY}}">{{.Label}}</text></g>{{end}}
</g>
{{end}}{{define "hop"}}
<g class="hop hop-{{.Status}}" data-hop="{{.Name}}" data-status="{{.Status}}" data-check="{{.Check}}"><title>{{.Title}}</title><rect x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}"></rect><text class="label" x="{{.TextX}}" y="{{.TextY}}">{{.Label}}</text>{{if .Short}}<text class="short" x="{{.TextX}}" y="{{.ShortY}}">{{.Short}}</text>{{end}}</g>
{{- end}}`
