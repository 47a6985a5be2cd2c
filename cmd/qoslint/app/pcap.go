package app

import (
	"fmt"
	"io"
	"slices"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/collectors/fabric"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/pcap"
	"github.com/qoslint/qoslint/collectors/pcap/wiremodel"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
	"github.com/qoslint/qoslint/render"
)

// PcapOptions are the settings of `qoslint pcap`.
type PcapOptions struct {
	Format string
	// Policy is the inventory file whose policy (and hosts' addresses)
	// the captures are judged by; "" is the default preset and no hosts.
	Policy string
	FailOn judge.Severity
	Style  Style
}

// pcapFabric is the fabric name of a run without --policy.
const pcapFabric = "captures"

// WireChecks are the checks that judge packet captures: kind evidence,
// reading the captures input. They are what `qoslint pcap` runs.
func WireChecks() []*checks.Check {
	var out []*checks.Check
	for _, c := range checks.All() {
		if c.Kind == checks.KindEvidence && slices.Contains(c.Inputs, checks.Captures) {
			out = append(out, c)
		}
	}
	return out
}

// Pcap judges capture files against a policy with the wire checks only,
// writes the report to out and returns lint's exit code: 0, 1 for
// findings at or above FailOn, 2 when a file or the policy could not be
// read (the report is still printed for what was read).
func Pcap(out, errOut io.Writer, files []string, opt PcapOptions) int {
	ss, ok := sinks(errOut, opt.Format, nil)
	if !ok {
		return ExitInput
	}
	start := now()
	inv, err := pcapPolicy(opt.Policy)
	if err != nil {
		printLoadError(errOut, err)
		return ExitInput
	}
	r, err := pcapReport(inv, files, opt.FailOn)
	if err != nil {
		fmt.Fprintf(errOut, "qoslint: %v\n", err)
		return ExitInput
	}
	r.Run = runSince(start)
	r.Host = hostname()
	opt.Style.apply(r)
	return emit(out, errOut, r, ss, false, nil, ExitInput)
}

// pcapPolicy is the inventory of --policy, or one holding only the
// default preset.
func pcapPolicy(file string) (*inventory.Inventory, error) {
	if file == "" {
		p, _ := policy.Preset(policy.DefaultPreset)
		return &inventory.Inventory{Fabric: pcapFabric, Policy: p}, nil
	}
	return inventory.LoadFile(file)
}

// pcapReport reads every file (an unreadable one is an input error; what
// was read before the error is still judged) and runs the wire checks.
func pcapReport(inv *inventory.Inventory, files []string, failOn judge.Severity) (*render.Report, error) {
	var enable []checks.Selector
	for _, c := range WireChecks() {
		enable = append(enable, checks.Selector{Name: c.ID, Where: "pcap"})
	}
	set, err := checks.Select(enable, nil)
	if err != nil {
		return nil, err
	}
	capture := &collectors.Capture{}
	for _, file := range files {
		s, err := pcap.ReadFile(file, file)
		if err != nil {
			capture.Errors = append(capture.Errors, asSourceError(file, err))
		}
		if s == nil {
			continue
		}
		capture.Notes = append(capture.Notes, pcap.Notes(s)...)
		capture.Wire = append(capture.Wire, wiremodel.Capture(s))
	}
	fab := fabric.Build(&inventory.Inventory{Fabric: inv.Fabric, Policy: inv.Policy, Hosts: inv.Hosts}, capture)
	r := &render.Report{
		Fabric:   inv.Fabric,
		Findings: checks.RunSet(fab, set),
		Errors:   append(capture.Errors, fab.Problems...),
		FailOn:   failOn,
		Notes:    noteTexts(append(capture.Notes, fab.Notes...)),
		Devices:  senders(fab),
		Wire:     render.BuildWire(fab),
	}
	r.Statuses = pcapStatuses(r.Devices)
	r.Normalize()
	return r, nil
}

// pcapStatuses: every device of a pcap report sent RoCEv2 in a capture, so
// the wire checks judged it; no other check read anything of it.
func pcapStatuses(devs []render.Device) []checks.Status {
	wire := map[string]bool{}
	for _, c := range WireChecks() {
		wire[c.ID] = true
	}
	var out []checks.Status
	for _, d := range devs {
		for _, c := range checks.All() {
			st := checks.NewStatus(d.Name, c.ID, "", "", "")
			if !wire[c.ID] {
				st = checks.NewStatus(d.Name, c.ID, checks.SkipNotCollected, "qoslint pcap reads the packet captures only", "")
			}
			out = append(out, st)
		}
	}
	return out
}

// senders are the report's devices: every IP that sent RoCEv2 traffic in
// a capture, by its inventory host's name when it has one.
func senders(f *model.Fabric) []render.Device {
	seen := map[string]bool{}
	var out []render.Device
	for _, s := range f.Wire {
		for _, fl := range s.Flows {
			name, ok := f.HostOfIP[fl.Src.Unmap()]
			if !ok {
				name = fl.Src.String()
			}
			if !seen[name] {
				seen[name] = true
				out = append(out, render.Device{Name: name, Kind: layout.KindHost})
			}
		}
	}
	return out
}

func asSourceError(file string, err error) *source.Error {
	if se, ok := err.(*source.Error); ok {
		return se
	}
	return &source.Error{Pos: source.Pos{File: file}, Msg: err.Error()}
}
