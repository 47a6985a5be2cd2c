package render

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/qoslint/qoslint/checks"
)

// The topology drawing: tiers in rows (the highest at the top, hosts at
// the bottom), devices sorted by name, every coordinate computed here so
// the page is the same on every run and in every browser.
const (
	topoPad     = 12
	topoLabelW  = 96 // the tier names' column
	topoBoxW    = 104
	topoBoxH    = 30
	topoGapX    = 14
	topoRowGap  = 96 // between two rows of boxes: room for the links
	topoNameMax = 13 // 12px monospace in a 104px box
	// topoPerRow wraps a tier of more devices into several rows, so a
	// 200-host tier is 9 rows of 24 rather than a 24,000-pixel line.
	topoPerRow = 24
	// TopoMaxDevices: above it the view draws each tier as one box and the
	// links between two tiers as one line with their counts, and lists the
	// links that have an error or warning; thousands of boxes and lines
	// would make a page no one can read and a browser slow to draw.
	TopoMaxDevices = 200
	// topoMaxListed caps that list; the rest are in the findings.
	topoMaxListed = 200
)

var tierNames = map[int]string{0: "hosts", 1: "leaves", 2: "spines", 3: "super-spines"}

type htmlTopo struct {
	// Absent says why nothing is drawn ("" when something is).
	Absent        string
	Aggregated    string // the sentence saying the view is aggregated
	Width, Height int
	Labels        []svgText
	Devices       []topoBox
	Links         []topoLine
	Counts        string
	Listed        []topoLine // aggregated: the links with an error or warning
	More          int
}

type topoBox struct {
	Name, Kind, Role, Label, Title string
	Tier                           int
	X, Y, W, H, TextX, TextY       int
}

type topoLine struct {
	ID, Verdict, Title string
	OneSided           bool
	Path               string
	Count              int // aggregated: links in the line
}

func layoutTopology(t *Topology, fs []checks.Finding) *htmlTopo {
	if !t.LLDP {
		return &htmlTopo{Absent: "no LLDP collected: no device's lldp.json was read, so the cabling is not known and nothing is drawn."}
	}
	j := newLinkJudge(fs)
	ht := &htmlTopo{}
	n := map[string]int{}
	for _, l := range t.Links {
		v, _ := j.judge(l)
		n[v]++
		if l.OneSided {
			n["one-sided"]++
		}
	}
	ht.Counts = fmt.Sprintf("%s: %d error, %d warning, %d one-sided.", counted(len(t.Links), "link"), n["error"], n["warning"], n["one-sided"])
	if len(t.Links) == 0 {
		ht.Counts = "LLDP shows no link between two inventory devices."
	}
	if len(t.Devices) > TopoMaxDevices {
		layoutTopoAggregated(ht, t, j)
		return ht
	}
	boxes := layoutTopoBoxes(ht, t)
	layoutTopoLinks(ht, t, j, boxes)
	return ht
}

// tiersOf groups the devices by tier, highest first, each sorted by name
// (BuildTopology's order).
func tiersOf(t *Topology) [][]TopoDevice {
	var out [][]TopoDevice
	for i, d := range t.Devices {
		if i == 0 || d.Tier != t.Devices[i-1].Tier {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], d)
	}
	return out
}

func layoutTopoBoxes(ht *htmlTopo, t *Topology) map[string]*topoBox {
	tiers := tiersOf(t)
	widest := 0
	for _, ds := range tiers {
		widest = max(widest, min(len(ds), topoPerRow))
	}
	inner := max(widest*(topoBoxW+topoGapX)-topoGapX, topoBoxW)
	ht.Width = topoPad*2 + topoLabelW + inner
	boxes := map[string]*topoBox{}
	// Room above the top row for an arc between two of its devices.
	y := topoPad + topoRowGap/4
	for _, ds := range tiers {
		ht.Labels = append(ht.Labels, svgText{X: topoPad, Y: y + topoBoxH/2 + 4, Text: tierNames[ds[0].Tier]})
		for start := 0; start < len(ds); start += topoPerRow {
			row := ds[start:min(start+topoPerRow, len(ds))]
			x := topoPad + topoLabelW + (inner-(len(row)*(topoBoxW+topoGapX)-topoGapX))/2
			for _, d := range row {
				title := d.Name + " (" + d.Kind
				if d.Role != "" {
					title += ", " + d.Role
				}
				b := topoBox{Name: d.Name, Kind: d.Kind, Role: d.Role, Tier: d.Tier, Label: cut(d.Name, topoNameMax),
					Title: title + ")", X: x, Y: y, W: topoBoxW, H: topoBoxH, TextX: x + topoBoxW/2, TextY: y + topoBoxH/2 + 4}
				ht.Devices = append(ht.Devices, b)
				boxes[d.Name] = &ht.Devices[len(ht.Devices)-1]
				x += topoBoxW + topoGapX
			}
			y += topoBoxH + topoRowGap
		}
	}
	// ht.Devices is complete: point the map at its final elements.
	for i := range ht.Devices {
		boxes[ht.Devices[i].Name] = &ht.Devices[i]
	}
	ht.Height = y - topoRowGap + topoPad
	return boxes
}

// layoutTopoLinks draws each link from the bottom edge of its upper box to
// the top edge of its lower one; a link within one tier arcs above it. The
// links on one edge of a box are spread along it, ordered by where their
// other ends are, so parallel cables stay apart and do not cross there.
func layoutTopoLinks(ht *htmlTopo, t *Topology, j linkJudge, boxes map[string]*topoBox) {
	type attach struct {
		link, end int // end 0 is the upper, 1 the lower
		other     *topoBox
		port      string
	}
	type edge struct {
		box    *topoBox
		bottom bool
	}
	edges := map[edge][]attach{}
	for i, l := range t.Links {
		u, d := boxes[l.Upper.Device], boxes[l.Lower.Device]
		if u == nil || d == nil {
			continue
		}
		// An end meets its link on the edge that faces the other end: the
		// bottom when the other is in a lower row, else the top.
		edges[edge{u, d.Y > u.Y}] = append(edges[edge{u, d.Y > u.Y}], attach{i, 0, d, l.Upper.Port})
		edges[edge{d, u.Y > d.Y}] = append(edges[edge{d, u.Y > d.Y}], attach{i, 1, u, l.Lower.Port})
	}
	ends := map[[2]int][2]int{} // link, end → x, y
	for e, as := range edges {
		slices.SortFunc(as, func(a, b attach) int {
			return cmp.Or(cmp.Compare(a.other.Y, b.other.Y), cmp.Compare(a.other.X, b.other.X),
				compareNames(a.port, b.port), cmp.Compare(a.link, b.link), cmp.Compare(a.end, b.end))
		})
		for k, a := range as {
			x, y := e.box.X+(k+1)*e.box.W/(len(as)+1), e.box.Y
			if e.bottom {
				y += e.box.H
			}
			ends[[2]int{a.link, a.end}] = [2]int{x, y}
		}
	}
	for i, l := range t.Links {
		a, ok := ends[[2]int{i, 0}]
		b, ok2 := ends[[2]int{i, 1}]
		if !ok || !ok2 {
			continue
		}
		path := fmt.Sprintf("M%d %d L%d %d", a[0], a[1], b[0], b[1])
		if a[1] == b[1] {
			// Both ends on the top edges of one row: an arc above it.
			path = fmt.Sprintf("M%d %d Q%d %d %d %d", a[0], a[1], (a[0]+b[0])/2, a[1]-topoRowGap/2, b[0], b[1])
		}
		ht.Links = append(ht.Links, topoLinkLine(l, j, path))
	}
}

func topoLinkLine(l TopoLink, j linkJudge, path string) topoLine {
	v, why := j.judge(l)
	title := strings.ReplaceAll(l.ID(), "--", " – ") + ": " + v
	if l.OneSided {
		title += ", one-sided (only one end's LLDP reports it)"
	}
	if len(why) > 0 {
		title += "\n" + strings.Join(why, "\n")
	}
	return topoLine{ID: l.ID(), Verdict: v, Title: title, OneSided: l.OneSided, Path: path, Count: 1}
}

// layoutTopoAggregated draws a large fabric as one box per tier and one
// line per pair of tiers that LLDP links, with the links' counts, and
// lists the links that have an error or a warning by name.
func layoutTopoAggregated(ht *htmlTopo, t *Topology, j linkJudge) {
	tiers := tiersOf(t)
	ht.Aggregated = fmt.Sprintf("%d devices, more than %d: each tier is drawn as one box and the links between two tiers as one line (dashed when some are one-sided); the links with an error or a warning are listed below it.",
		len(t.Devices), TopoMaxDevices)
	const w = 3 * topoBoxW
	ht.Width = topoPad*2 + topoLabelW + w
	y := topoPad
	pos := map[int]*topoBox{}
	for _, ds := range tiers {
		tier := ds[0].Tier
		ht.Labels = append(ht.Labels, svgText{X: topoPad, Y: y + topoBoxH/2 + 4, Text: tierNames[tier]})
		x := topoPad + topoLabelW
		label := counted(len(ds), "device")
		ht.Devices = append(ht.Devices, topoBox{Name: tierNames[tier], Kind: "tier", Tier: tier, Label: label,
			Title: fmt.Sprintf("%s: %s, %s … %s", tierNames[tier], label, ds[0].Name, ds[len(ds)-1].Name),
			X:     x, Y: y, W: w, H: topoBoxH, TextX: x + w/2, TextY: y + topoBoxH/2 + 4})
		y += topoBoxH + topoRowGap
	}
	for i := range ht.Devices {
		pos[ht.Devices[i].Tier] = &ht.Devices[i]
	}
	ht.Height = y - topoRowGap + topoPad
	tierOf := map[string]int{}
	for _, d := range t.Devices {
		tierOf[d.Name] = d.Tier
	}
	type agg struct {
		n, oneSided int
		verdicts    map[string]int
	}
	groups := map[[2]int]*agg{}
	for _, l := range t.Links {
		k := [2]int{tierOf[l.Upper.Device], tierOf[l.Lower.Device]}
		g := groups[k]
		if g == nil {
			g = &agg{verdicts: map[string]int{}}
			groups[k] = g
		}
		v, _ := j.judge(l)
		g.n++
		g.verdicts[v]++
		if l.OneSided {
			g.oneSided++
		}
		if (v == "error" || v == "warning") && len(ht.Listed) < topoMaxListed {
			ht.Listed = append(ht.Listed, topoLinkLine(l, j, ""))
		} else if v == "error" || v == "warning" {
			ht.More++
		}
	}
	keys := make([][2]int, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]int) int { return cmp.Or(cmp.Compare(b[0], a[0]), cmp.Compare(b[1], a[1])) })
	for i, k := range keys {
		g := groups[k]
		u, d := pos[k[0]], pos[k[1]]
		// Lines between different pairs of tiers start at different x, so
		// a line that skips a tier does not hide one that does not.
		x := u.X + (i+1)*u.W/(len(keys)+1)
		path := fmt.Sprintf("M%d %d L%d %d", x, u.Y+u.H, x, d.Y)
		if k[0] == k[1] {
			path = fmt.Sprintf("M%d %d Q%d %d %d %d", u.X, u.Y+u.H/2, u.X-topoLabelW/2, u.Y+u.H/2+topoRowGap/2, u.X, u.Y+u.H/2)
		}
		verdict := "ok"
		for v := range g.verdicts {
			if sevRank[v] > sevRank[verdict] {
				verdict = v
			}
		}
		id := tierNames[k[0]] + "--" + tierNames[k[1]]
		ht.Links = append(ht.Links, topoLine{ID: id, Verdict: verdict, OneSided: g.oneSided > 0, Path: path, Count: g.n,
			Title: fmt.Sprintf("%s – %s: %s, %d error, %d warning, %d one-sided", tierNames[k[0]], tierNames[k[1]],
				counted(g.n, "link"), g.verdicts["error"], g.verdicts["warning"], g.oneSided)})
	}
}
