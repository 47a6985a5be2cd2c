package checks

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/english"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
)

var hostRoCEVersion = &Check{
	ID:       "host-roce-version",
	Kind:     KindConfig,
	Devices:  Hosts,
	Applies:  appliesRoCEHost,
	Severity: judge.Error,
	Title:    "RoCE leaves each NIC as RoCE v2, the version with an IP header and so a DSCP",
	Doc: `RoCE v1 is an Ethernet frame with no IP header: it carries no DSCP, so no switch that trusts
DSCP can classify it, and it cannot be routed. Each GID of a RoCE port has a type,
/sys/class/infiniband/<ibdev>/ports/<port>/gid_attrs/types/<index>, "IB/RoCE v1" or "RoCE v2"
(Linux Documentation/ABI/testing/sysfs-class-infiniband), and a QP speaks the version of the GID it
uses. NCCL uses NCCL_IB_GID_INDEX, taken from the same layers as NCCL_IB_TC; unset (-1, NCCL 2.21.5 on)
it chooses one itself (NVIDIA/nccl src/transport/net_ib/connect.cc ncclIbGetGidIndex and
ncclUpdateGidIndex): it walks the table from index 0 and moves to a GID of the address family
NCCL_IB_ADDR_FAMILY names (AF_INET by default) within NCCL_IB_ADDR_RANGE, preferring one whose type
is NCCL_IB_ROCE_VERSION_NUM (default 2), read from the same gid_attrs/types file. qoslint reads the
types of entries 0-15, not the GID addresses, so for the automatic choice it can tell only whether a
RoCE v2 GID exists to be chosen and whether NCCL_IB_ROCE_VERSION_NUM asks for v2; which address NCCL
then picks is not judged. NCCL before 2.21.5 defaulted to index 0, on most ports the link-local RoCE v1
GID: set NCCL_IB_GID_INDEX there. RDMA-CM users (NVMe-oF, NFS over RDMA, perftest -R; not NCCL) take
their version from /sys/kernel/config/rdma_cm/<ibdev>/ports/<port>/default_roce_mode (Linux
Documentation/ABI/testing/configfs-rdma_cm), which must say "RoCE v2"; that configfs folder exists
only after mkdir /sys/kernel/config/rdma_cm/<ibdev>, so its absence is a note, not a finding.`,
	Inputs: []Input{GIDTypes, RDMACMMode, NCCL, IBDev2Netdev},
	Run:    runHostRoCEVersion,
}

func runHostRoCEVersion(f *model.Fabric) []Finding {
	var out []Finding
	for _, h := range f.Hosts {
		var missing []string
		for _, n := range h.NICs {
			if n.IBDev == "" {
				continue // no RDMA port: ibdev2netdev's not-collected says so
			}
			if fd, ok := roceModeFinding(h, n); ok {
				out = append(out, fd)
			}
			if n.GIDTypes == nil {
				missing = append(missing, gidTypesDir(n)+" not collected")
			} else if fd, ok := ncclGIDFinding(h, n); ok {
				out = append(out, fd)
			}
		}
		if len(missing) > 0 {
			out = append(out, notCollected(h.Name, missing, "the RoCE version"))
		}
	}
	return out
}

func gidTypesDir(n *model.NIC) string {
	return fmt.Sprintf("sysfs/class/infiniband/%s/ports/%d/gid_attrs/types", n.IBDev, n.Port)
}

// roceModeFinding judges RDMA-CM's default RoCE mode of the NIC's port.
func roceModeFinding(h *model.Host, n *model.NIC) (Finding, bool) {
	m := n.RoCEMode
	if !m.Known || judge.RDMACMMode(m.V).OK {
		return Finding{}, false
	}
	return Finding{
		Severity: judge.Error, Device: h.Name, Interface: n.Netdev,
		Message: fmt.Sprintf("RDMA-CM's default RoCE mode of %s port %d is %s: RDMA-CM connections that do not choose a GID themselves "+
			"(NVMe-oF, NFS over RDMA) send RoCE v1, which has no IP header and so no DSCP", n.IBDev, n.Port, m.V),
		Expected: model.RoCEv2, Actual: m.V, Source: m.Origin.Pos(),
		Changes: []Change{{Kind: Sysfs, Target: layout.RoCEModePath(layout.SysRoot, n.IBDev, n.Port),
			Value: model.RoCEv2, Old: m.V, HasOld: true}},
	}, true
}

// ncclGIDFinding judges the GID NCCL uses on the NIC's port; the verdict
// is judge.NCCLGID's, ncclGIDDetail words it.
func ncclGIDFinding(h *model.Host, n *model.NIC) (Finding, bool) {
	j := judge.NCCLGID(NCCLGIDOf(h, n))
	if j.OK {
		return Finding{}, false
	}
	fd, _ := ncclGIDDetail(h, n)
	fd.Severity = j.Severity
	return fd, true
}

// NCCLGIDOf is what judge.NCCLGID reads of a NIC whose GID types were
// collected.
func NCCLGIDOf(h *model.Host, n *model.NIC) judge.NCCLGIDUse {
	g := judge.NCCLGIDUse{Index: h.NCCLGIDIndex.V, Version: h.NCCLRoCEVersion.V, VersionKnown: h.NCCLRoCEVersion.Known}
	if t, ok := n.GIDTypes.At(g.Index); ok {
		g.Type, g.HasType = t.V, true
	}
	for _, t := range n.GIDTypes.All() {
		g.AnyV2 = g.AnyV2 || t.V == model.RoCEv2
	}
	return g
}

func ncclGIDDetail(h *model.Host, n *model.NIC) (Finding, bool) {
	idx := h.NCCLGIDIndex
	fd := Finding{Device: h.Name, Interface: n.Netdev, Expected: "a RoCE v2 GID", Source: idx.Origin.Pos()}
	if idx.V >= 0 {
		t, ok := n.GIDTypes.At(idx.V)
		switch {
		case ok && t.V == model.RoCEv2:
			return Finding{}, false
		case ok:
			fd.Severity, fd.Actual = judge.Error, fmt.Sprintf("NCCL_IB_GID_INDEX=%d, a GID of type %q", idx.V, t.V)
			fd.Message = fmt.Sprintf("NCCL_IB_GID_INDEX=%d selects a RoCE v1 GID (type %q) of %s port %d (%s:1): RoCE v1 has no IP header, so RoCE leaves with no DSCP and no switch can classify it",
				idx.V, t.V, n.IBDev, n.Port, t.Origin.Pos().File)
			fd.Changes, fd.Message = gidIndexFix(h, n, idx.V, fd.Message)
		case idx.V >= layout.GIDTypesRead:
			fd.Severity, fd.Actual = judge.Info, fmt.Sprintf("NCCL_IB_GID_INDEX=%d", idx.V)
			fd.Message = fmt.Sprintf("NCCL_IB_GID_INDEX=%d is beyond the GID entries qoslint reads (0-%d): its RoCE version is not judged", idx.V, layout.GIDTypesRead-1)
		default:
			fd.Severity, fd.Actual = judge.Warning, fmt.Sprintf("NCCL_IB_GID_INDEX=%d, no such GID", idx.V)
			fd.Message = fmt.Sprintf("NCCL_IB_GID_INDEX=%d names a GID entry of %s port %d that has no type in the capture: the kernel holds no GID there (NCCL then fails to connect), or the file was not collected; qoslint prints no command for it",
				idx.V, n.IBDev, n.Port)
		}
		return withLayer(fd, h), true
	}
	return autoGIDFinding(h, n, fd)
}

// autoGIDFinding judges NCCL's own choice (NCCL_IB_GID_INDEX unset).
func autoGIDFinding(h *model.Host, n *model.NIC, fd Finding) (Finding, bool) {
	ver := h.NCCLRoCEVersion
	var v2 []int
	for i, t := range n.GIDTypes.All() {
		if t.V == model.RoCEv2 {
			v2 = append(v2, i)
		}
	}
	slices.Sort(v2)
	switch {
	case ver.Known && ver.V != 2:
		fd.Severity, fd.Source = judge.Error, ver.Origin.Pos()
		fd.Actual = fmt.Sprintf("NCCL_IB_GID_INDEX unset, NCCL_IB_ROCE_VERSION_NUM=%d", ver.V)
		fd.Message = fmt.Sprintf("NCCL_IB_ROCE_VERSION_NUM=%d: NCCL's automatic GID choice prefers that version, not RoCE v2", ver.V)
		if ver.V != 1 {
			fd.Message += "; no GID has it, so NCCL keeps the first GID of the address family, whose version qoslint cannot tell without the GID addresses"
		}
		fd.Message += "; " + layerSays(h.NCCLRoCEVersion.Layer)
		fd.Changes = ncclVarFix(h.NCCLRoCEVersion.Layer, "NCCL_IB_ROCE_VERSION_NUM", "", strconv.Itoa(ver.V), &fd.Message)
		return fd, true
	case len(v2) == 0:
		fd.Severity, fd.Source = judge.Error, at(firstGID(n.GIDTypes).Origin, "")
		fd.Actual = fmt.Sprintf("NCCL_IB_GID_INDEX unset; no RoCE v2 GID among %s entries 0-%d", n.IBDev, layout.GIDTypesRead-1)
		fd.Message = fmt.Sprintf("%s port %d has no RoCE v2 GID, so NCCL's automatic choice (NCCL_IB_GID_INDEX unset) can only pick a RoCE v1 one, which has no IP header and so no DSCP; "+
			"the port (or the kernel's RoCE v2 support) must be fixed on the host, so qoslint prints no command for it", n.IBDev, n.Port)
		return fd, true
	}
	return Finding{}, false
}

// gidIndexFix points NCCL_IB_GID_INDEX at the RoCE v2 GID the kernel
// adds right after the v1 one of the same address
// (drivers/infiniband/core/roce_gid_mgmt.c adds an entry per GID type for
// every address, v1 first), when the capture shows one there.
func gidIndexFix(h *model.Host, n *model.NIC, idx int, msg string) ([]Change, string) {
	t, ok := n.GIDTypes.At(idx + 1)
	if !ok || t.V != model.RoCEv2 {
		return nil, msg + "; pick the RoCE v2 GID of the same address (show_gids); qoslint prints no command for it, since index " + strconv.Itoa(idx+1) + " is not RoCE v2"
	}
	msg += fmt.Sprintf("; index %d is the RoCE v2 GID the kernel adds after it", idx+1)
	return ncclVarFix(h.NCCLGIDIndex.Layer, "NCCL_IB_GID_INDEX", strconv.Itoa(idx+1), strconv.Itoa(idx), &msg), msg
}

// ncclVarFix sets name in /etc/nccl.conf (value "" deletes it), when that
// is the layer that decided; a stronger layer is the operator's.
func ncclVarFix(layer, name, value, old string, msg *string) []Change {
	switch layer {
	case model.LayerEnv, model.LayerHome:
		what := "set " + name + "=" + value
		if value == "" {
			what = "unset " + name
		}
		*msg += "; " + what + " there, since a file below it cannot override it (qoslint prints no command for that layer)"
		return nil
	}
	return []Change{{Kind: NCCLConf, Target: model.NCCLConfPath, Path: []string{name}, Value: value, Old: old, HasOld: layer == model.LayerEtc}}
}

// withLayer names the layer that set NCCL_IB_GID_INDEX and the stronger
// ones that were not collected.
func withLayer(fd Finding, h *model.Host) Finding {
	fd.Message += "; " + layerSays(h.NCCLGIDIndex.Layer)
	if u := h.NCCLGIDIndex.Unknown; len(u) > 0 {
		fd.Message += "; " + joinAnd(u) + " " + english.Plural(len(u), "was", "were") + " not collected: a job may still override it there"
	}
	return fd
}

// firstGID is the type of the entry of the lowest index; the zero Value
// when none.
func firstGID(g model.GIDTypes) model.Value[string] {
	for _, t := range g.All() {
		return t
	}
	return model.Value[string]{}
}
