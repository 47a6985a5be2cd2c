package render

import (
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/templates"
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
		case f.Severity == judge.Error:
			v.Errors++
		case f.Severity == judge.Warning:
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

// htmlPage is templates/html/report.html.tmpl, which lists the page's
// stable ids and classes; htmlCSS is its style sheet, report.css.
var (
	htmlPage = template.Must(templates.HTMLPage("report", nil))
	htmlCSS  = templates.MustCSS("report")
)
