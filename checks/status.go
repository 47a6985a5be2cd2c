package checks

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
)

// A report's PASS must mean the check judged real input: a check that had
// nothing to read, or that does not judge a device, is skipped with its
// reason, never counted as passed. RunStatus decides, for every device ×
// check, whether the check ran or why it did not.

// SkipKind is why a check did not run on a device; "" means it ran.
type SkipKind string

const (
	// SkipNotCollected: the inputs the check reads were absent (a "not
	// collected" finding of the check, or an optional input such as
	// counters, captures or Kubernetes manifests that the fabric lacks).
	SkipNotCollected SkipKind = "not collected"
	// SkipNotApplicable: the check does not judge this kind of device or
	// feature (ib-* on an Ethernet host, packet-trim-remark on a switch
	// that does not trim).
	SkipNotApplicable SkipKind = "not applicable"
	// SkipDisabled: --disable, --enable or the inventory's checks section
	// leaves the check out.
	SkipDisabled SkipKind = "disabled"
)

// Status is whether one check ran on one device. A check that ran passed
// or failed by its findings, which the formatters read from the report.
//
// A report holds one per device and check (650,000 at TestLintScale's
// 10,496 devices), and nearly all of them ran with nothing to say or skip
// for one of a few reasons: the check, the skip, its reason and the note
// are kept apart, shared by the statuses alike, so that a status is its
// device and one pointer, 24 bytes (40 with the check's name beside the
// device: 26 MB of the report at that size).
type Status struct {
	Device string
	k      *statusKey
}

type statusKey struct {
	check string
	statusDetail
}

type statusDetail struct {
	skip         SkipKind
	reason, note string
}

// NewStatus is the status of check on device: skip "" when the check ran
// (reason then empty); note, on a check that ran, is what the report's
// notes must say about how little it had to judge (counters that did not
// grow).
func NewStatus(device, check string, skip SkipKind, reason, note string) Status {
	return Status{Device: device, k: &statusKey{check, statusDetail{skip, reason, note}}}
}

// Check is the ID of the check.
func (s Status) Check() string {
	if s.k == nil {
		return ""
	}
	return s.k.check
}

// Skip is "" when the check ran.
func (s Status) Skip() SkipKind {
	if s.k == nil {
		return ""
	}
	return s.k.skip
}

// Reason says why the check did not run; "" when it ran.
func (s Status) Reason() string {
	if s.k == nil {
		return ""
	}
	return s.k.reason
}

// Note is what the report's notes say about a check that ran on little.
func (s Status) Note() string {
	if s.k == nil {
		return ""
	}
	return s.k.note
}

// Ran reports whether the check judged the device.
func (s Status) Ran() bool { return s.Skip() == "" }

// SkipText is the skip as one line: "not collected: ethtool -S ...".
func (s Status) SkipText() string {
	if s.Skip() == "" {
		return ""
	}
	return string(s.Skip()) + ": " + s.Reason()
}

// details shares one statusKey among the statuses of a run that are
// alike; ran holds each check's key for the statuses that ran with no
// note, most of a report's, which need no lookup.
type details struct {
	m   map[statusKey]*statusKey
	ran map[string]*statusKey
}

func newDetails(cs []*Check) details {
	d := details{m: map[statusKey]*statusKey{}, ran: make(map[string]*statusKey, len(cs))}
	for _, c := range cs {
		d.ran[c.ID] = &statusKey{check: c.ID}
	}
	return d
}

func (ds details) status(device, check string, skip SkipKind, reason, note string) Status {
	if skip == "" && reason == "" && note == "" {
		if p, ok := ds.ran[check]; ok {
			return Status{Device: device, k: p}
		}
	}
	k := statusKey{check, statusDetail{skip, reason, note}}
	p, ok := ds.m[k]
	if !ok {
		p = &k
		ds.m[k] = p
	}
	return Status{Device: device, k: p}
}

// Applies is a check's declaration of where it judges nothing: it returns
// the skip kind and reason for device in f, or "" when the check judges
// it. A nil Applies judges every device its Devices names; the check's own
// not-collected findings still mark it skipped on a device.
type Applies func(f *model.Fabric, device string) (SkipKind, string)

func devicesText(d Devices) string {
	switch d {
	case Switches:
		return "switches"
	case Hosts:
		return "hosts"
	}
	return "switches and hosts"
}

// skipReason names the inputs a check's not-collected findings on one
// device miss, each once.
func skipReason(fs []Finding) string {
	var missing []string
	for _, f := range fs {
		for _, m := range f.skip.missing {
			if !slices.Contains(missing, m) {
				missing = append(missing, m)
			}
		}
	}
	return strings.Join(missing, ", ")
}

type fabricDevice struct{ name, kind string }

// fabricDevices are f's switches and hosts, sorted by name.
func fabricDevices(f *model.Fabric) []fabricDevice {
	var out []fabricDevice
	for _, s := range f.Switches {
		out = append(out, fabricDevice{s.Name, layout.KindSwitch})
	}
	for _, h := range f.Hosts {
		out = append(out, fabricDevice{h.Name, layout.KindHost})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// The Applies of the check families. Each check names its own in its
// declaration.

// appliesRoCEHost: a host with no RoCE netdev (an InfiniBand-only host)
// has nothing the RoCE host checks judge; without ibdev2netdev.txt the
// netdevs were not known at all.
func appliesRoCEHost(f *model.Fabric, device string) (SkipKind, string) {
	h := f.Host(device)
	switch {
	case h == nil || len(h.NICs) > 0:
		return "", ""
	case slices.Contains(h.NotCollected, layout.IBDev2NetdevFile):
		return SkipNotCollected, layout.IBDev2NetdevFile + " not collected, and the inventory names no NIC: no RoCE netdev is known"
	}
	return SkipNotApplicable, "the host has no RoCE netdev to judge (" + layout.IBDev2NetdevFile + " names none)"
}

// nicInputs are the inputs read per RoCE netdev: a check reading one has
// nothing to judge on a host without RoCE netdevs.
var nicInputs = []Input{MlnxQoS, SysfsECN, SysfsTC, IBDev2Netdev, IPLink, Ethtool, HWCounters, GIDTypes, RDMACMMode, RDMACMToS, MlxconfigQ}

// inputsAbsent derives a skip from the check's Inputs and what the model
// read of device: a switch whose configuration was not read, a host
// without RoCE netdevs, a host without lspci.txt.
func inputsAbsent(f *model.Fabric, c *Check, device string) (SkipKind, string) {
	if sw := f.SwitchByName(device); sw != nil {
		if sw.OS != layout.OSCumulus && sw.OS != "" {
			return osAbsent(c, sw)
		}
		if slices.Contains(c.Inputs, NVConfig) && sw.ConfigFile == "" {
			return SkipNotCollected, layout.NVUEYAMLFile + " or " + layout.NVUECommandsFile + " not read (not collected, or an input error)"
		}
		return "", ""
	}
	h := f.Host(device)
	if h == nil {
		return "", ""
	}
	if slices.ContainsFunc(c.Inputs, func(in Input) bool { return slices.Contains(nicInputs, in) }) {
		if k, why := appliesRoCEHost(f, device); k != "" {
			return k, why
		}
	}
	if slices.Contains(c.Inputs, Lspci) && h.PCIFile == "" {
		return SkipNotCollected, layout.LspciFile + " not read (not collected, or an input error)"
	}
	return "", ""
}

// configInputs are each switch OS's configuration, as a check's input. A
// check judges the switches of the OSes whose configuration it declares;
// one that declares another OS's alone judges what this OS has no
// counterpart of (SONiC: qos roce modes, traffic pools, packet trimming,
// adaptive routing, the hash seed, bonds' QoS) or what qoslint does not
// read from it yet (the NVUE operational views, gNMI counters).
var configInputs = map[string]struct {
	in   Input
	file string
}{
	layout.OSCumulus: {NVConfig, layout.NVUEYAMLFile + " or " + layout.NVUECommandsFile},
	layout.OSSONiC:   {ConfigDB, layout.ConfigDBFile},
}

// SwitchOSes are the switch OSes check c judges, sorted: those whose
// configuration it declares, or all when it declares none (it reads what
// every OS has: LLDP, captures); none when it judges no switch.
func SwitchOSes(c *Check) []string {
	if !c.Devices.Has(layout.KindSwitch) {
		return nil
	}
	var all, own []string
	for os, ci := range configInputs {
		all = append(all, os)
		if slices.Contains(c.Inputs, ci.in) {
			own = append(own, os)
		}
	}
	if len(own) == 0 {
		own = all
	}
	sort.Strings(own)
	return own
}

// osAbsent is inputsAbsent for a switch of an OS other than Cumulus Linux.
func osAbsent(c *Check, sw *model.Switch) (SkipKind, string) {
	own := configInputs[sw.OS]
	reads := slices.Contains(c.Inputs, own.in)
	other := slices.ContainsFunc(c.Inputs, func(in Input) bool {
		for _, ci := range configInputs {
			if ci.in == in {
				return true
			}
		}
		return false
	})
	switch {
	case !reads && other:
		return SkipNotApplicable, c.ID + " does not judge " + osName(sw.OS) + " switches"
	case reads && sw.ConfigFile == "":
		return SkipNotCollected, own.file + " not read (not collected, or an input error)"
	}
	return "", ""
}

func osName(os string) string {
	if os == layout.OSSONiC {
		return "SONiC"
	}
	return os
}

// osFinding keeps a finding on a switch of an OS other than Cumulus Linux
// only from a check that judges that OS (osAbsent), and drops its NVUE
// commands: such a switch is fixed through its own configuration, which
// the fix side does not render yet (qoslint help development, "Adding a
// switch OS"). It reports whether fd is kept.
func osFinding(f *model.Fabric, c *Check, fd *Finding) bool {
	sw := f.SwitchByName(fd.Device)
	if sw == nil || sw.OS == layout.OSCumulus || sw.OS == "" {
		return true
	}
	if k, _ := osAbsent(c, sw); k == SkipNotApplicable {
		return false
	}
	// NVUE paths mean nothing on another OS; what they set does, for the
	// OS's fix renderer. Two NVUE lines of one setting (a mode and its
	// share) are one setting.
	var kept []Change
	for _, ch := range fd.Changes {
		if ch.Kind != NVUE && ch.Kind != NVUEUnset {
			kept = append(kept, ch)
			continue
		}
		if ch.Set == nil || slices.ContainsFunc(kept, func(k Change) bool { return k.Set != nil && reflect.DeepEqual(*k.Set, *ch.Set) }) {
			continue
		}
		kept = append(kept, Change{Kind: SwitchSetting, Set: ch.Set})
	}
	fd.Changes = kept
	return true
}

// appliesHostCounters: the host evidence checks read ethtool -S (and, with
// hw, the RDMA hw_counters) of at least one NIC.
func appliesHostCounters(hw bool) Applies {
	return func(f *model.Fabric, device string) (SkipKind, string) {
		if k, why := appliesRoCEHost(f, device); k != "" {
			return k, why
		}
		h := f.Host(device)
		if h == nil {
			return "", ""
		}
		for _, n := range h.NICs {
			if n.Counters != nil && (!hw || n.Counters.HWFile != "") {
				return "", ""
			}
		}
		what := layout.EthtoolFile("<netdev>") + " (ethtool -S)"
		if hw {
			what = "the RDMA hw_counters (sysfs/class/infiniband/<ibdev>/ports/<port>/hw_counters)"
		}
		return SkipNotCollected, what + " of no NIC collected: lint reads the saved counters, audit collects them with --counters"
	}
}

// appliesSwitchCounters: the switch evidence checks read gnmi-counters.json.
func appliesSwitchCounters(f *model.Fabric, device string) (SkipKind, string) {
	if sw := f.SwitchByName(device); sw != nil && sw.Counters == nil {
		return SkipNotCollected, layout.GNMIFile + " not collected: lint reads the saved gNMI counters, audit collects them with --counters"
	}
	return "", ""
}

// appliesWire: the wire checks judge the flows of packet captures; a
// device ran when it held a capture or a capture shows its address.
func appliesWire(f *model.Fabric, device string) (SkipKind, string) {
	if len(f.Wire) == 0 {
		return SkipNotCollected, "no packet capture (" + layout.CapturesDir + "/*.pcap or *.pcapng in a device folder)"
	}
	if f.OnWire(device) {
		return "", ""
	}
	return SkipNotCollected, "no packet capture holds this device's traffic"
}

// appliesIBHost: the InfiniBand checks judge the hosts with InfiniBand data.
func appliesIBHost(f *model.Fabric, device string) (SkipKind, string) {
	if f.IB == nil {
		return SkipNotApplicable, "the fabric is Ethernet (fabric_type is neither infiniband nor mixed)"
	}
	for _, h := range f.IB.Hosts {
		if h.Name == device {
			return "", ""
		}
	}
	return SkipNotCollected, "no InfiniBand data (" + layout.IBStatFile + ") collected on this host"
}

// appliesIBSM: the checks judged at the subnet manager's opensm.conf.
func appliesIBSM(f *model.Fabric, device string) (SkipKind, string) {
	if k, why := appliesIBHost(f, device); k != "" {
		return k, why
	}
	if f.IB.SM == nil {
		return SkipNotCollected, layout.OpenSMConfFile + " not collected on any host"
	}
	return "", ""
}

// appliesK8s: the Kubernetes checks judge hosts that a manifest selects.
func appliesK8s(workloads bool) Applies {
	return func(f *model.Fabric, device string) (SkipKind, string) {
		if f.K8s == nil {
			return SkipNotCollected, "no Kubernetes manifests (k8s/*.yaml at the fabric root, or lint --k8s DIR)"
		}
		if workloads {
			for _, c := range f.K8s.Containers {
				if slices.Contains(c.Hosts, device) {
					return "", ""
				}
			}
			return SkipNotApplicable, "no RDMA workload of the manifests runs on this host (nodeSelector, k8s_node, k8s_labels)"
		}
		for _, t := range f.K8s.Templates {
			if slices.Contains(t.Hosts, device) {
				return "", ""
			}
		}
		return SkipNotApplicable, "no NicConfigurationTemplate of the manifests selects this host (nodeSelector, k8s_node, k8s_labels)"
	}
}

// appliesTrim: the packet appliesTrim checks judge a switch whose configuration
// trims; packet-trim itself also compares a collected nv show with a
// configuration that does not trim (any).
func appliesTrim(any bool) Applies {
	return func(f *model.Fabric, device string) (SkipKind, string) {
		sw := f.SwitchByName(device)
		switch {
		case sw == nil:
			return "", ""
		case sw.ConfigFile == "" || sw.Trim == nil:
			return SkipNotCollected, "the switch's configuration (" + layout.NVUEYAMLFile + " or " + layout.NVUECommandsFile + ") not collected"
		case sw.Trim.Enabled.V, any && sw.Trim.Oper != nil:
			return "", ""
		}
		return SkipNotApplicable, "the switch's configuration does not trim packets"
	}
}

// idleNote is, for a host or switch evidence check judging counters of two
// samples, the note that no traffic grew between them: its silence then
// says nothing of the fabric, only that nothing ran while it looked.
func idleNote(f *model.Fabric, c *Check, device string) string {
	if c.Kind != KindEvidence {
		return ""
	}
	var idle []string
	var iv string
	switch {
	case slices.Contains(c.Inputs, Ethtool) || slices.Contains(c.Inputs, HWCounters):
		h := f.Host(device)
		if h == nil {
			return ""
		}
		for _, n := range h.NICs {
			if nc := n.Counters; nc != nil && nc.Delta && nicIdle(nc) {
				idle, iv = append(idle, n.Netdev), nc.Interval.String()
			}
		}
	case slices.Contains(c.Inputs, GNMICounters):
		sw := f.SwitchByName(device)
		if sw == nil || sw.Counters == nil || !sw.Counters.Delta || !sw.Counters.TransmitSeen || !switchIdle(sw.Counters) {
			return ""
		}
		idle, iv = []string{"any port"}, sw.Counters.Interval.String()
	}
	if len(idle) == 0 {
		return ""
	}
	return fmt.Sprintf("no traffic counter grew on %s between the two counter samples %s apart: the check had no traffic to judge, so its silence says nothing of the fabric; sample again while RoCE traffic runs",
		strings.Join(idle, ", "), iv)
}

// nicIdle: every traffic counter the NIC printed (per-priority bytes and
// packets, vPort RDMA) is Known and 0 after the delta; at least one is.
func nicIdle(c *model.NICCounters) bool {
	vals := []model.Value[uint64]{c.RDMA.RxPackets, c.RDMA.RxBytes, c.RDMA.TxPackets, c.RDMA.TxBytes}
	for _, p := range c.Prio {
		vals = append(vals, p.RxBytes, p.RxPackets, p.TxBytes, p.TxPackets)
	}
	return allZero(vals)
}

// switchIdle: no egress queue of any port transmitted a packet.
func switchIdle(c *model.SwitchCounters) bool {
	var vals []model.Value[uint64]
	for _, p := range c.Ports {
		vals = append(vals, p.Transmit[:]...)
	}
	return allZero(vals)
}

func allZero(vals []model.Value[uint64]) bool {
	known := false
	for _, v := range vals {
		if v.Known && v.V > 0 {
			return false
		}
		known = known || v.Known
	}
	return known
}

// appliesIBAdaptiveRouting: the check judges the subnet manager's
// routing_engine against a policy that asks for adaptive routing.
func appliesIBAdaptiveRouting(f *model.Fabric, device string) (SkipKind, string) {
	if k, why := appliesIBSM(f, device); k != "" {
		return k, why
	}
	if !f.Policy.IB.HasAdaptiveRouting {
		return SkipNotApplicable, "the policy asks for no InfiniBand adaptive routing"
	}
	if f.IB.SM.Device != device {
		return SkipNotApplicable, "judged on the subnet manager's host, " + f.IB.SM.Device
	}
	return "", ""
}

// appliesCabling: the cabling check compares LLDP with topology.dot.
func appliesCabling(f *model.Fabric, device string) (SkipKind, string) {
	if f.Plan == nil {
		return SkipNotCollected, "no cabling plan (" + layout.TopologyFile + " at the fabric root)"
	}
	return "", ""
}

// appliesRails: rail-alignment judges the inventory's rail rule.
func appliesRails(f *model.Fabric, device string) (SkipKind, string) {
	if f.Rails == nil {
		return SkipNotApplicable, "the inventory sets no rail rule (rails.groups)"
	}
	return appliesRoCEHost(f, device)
}
