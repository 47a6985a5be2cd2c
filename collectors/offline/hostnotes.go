package offline

import (
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

// roceCandidates picks, from ibdev2netdev, the ports a host whose inventory
// names no nics is checked on. ibdev2netdev lists every RDMA port, IPoIB
// ones included, each with its carrier as "(Up)" or "(Down)"
// (Mellanox/mlnx-tools sbin/ibdev2netdev before 290a843: `echo "$d port
// $port ==> $ethdev ($link_state)"`, link_state from
// /sys/class/net/<eth>/carrier). An IPoIB netdev (ip -j link's link_type
// "infiniband", iproute2 lib/ll_types.c) carries no RoCE, and a port that
// is down carries nothing; judging either as a RoCE NIC would report
// defects of ports nobody uses, so they are skipped and named instead;
// the IPoIB ones apart (ipoib), since on a fabric with InfiniBand the IB
// checks judge their HCA ports.
func roceCandidates(devs []hostfiles.IBDev, links []hostfiles.Link) (out, skipped, ipoib []string) {
	byName := map[string]hostfiles.Link{}
	for _, l := range links {
		byName[l.Name] = l
	}
	seen := map[string]bool{}
	for _, d := range devs {
		if seen[d.Netdev] {
			continue
		}
		seen[d.Netdev] = true
		l, ok := byName[d.Netdev]
		switch {
		case ok && l.LinkType == "infiniband":
			ipoib = append(ipoib, d.Netdev)
		case d.State == "Down":
			skipped = append(skipped, d.Netdev+" (Down in ibdev2netdev)")
		case ok && l.OperState == "DOWN":
			skipped = append(skipped, d.Netdev+" (operstate DOWN)")
		default:
			out = append(out, d.Netdev)
		}
	}
	return out, skipped, ipoib
}

// cnpPairNote names the half of the CNP marking that was not collected:
// host-cnp judges the half it has and would otherwise be silent about the
// other.
func (r *reader) cnpPairNote(nic *collectors.NICCapture) {
	s := nic.Sysfs
	if s == nil || (s.CNPDSCP == nil) == (s.CNP802pPrio == nil) {
		return
	}
	have, miss := s.CNPDSCP, "cnp_802p_prio"
	if have == nil {
		have, miss = s.CNP802pPrio, "cnp_dscp"
	}
	r.note(source.Pos{File: have.File}, "%s: ecn/roce_np/%s was not collected, so the CNP %s of %s is not checked",
		nic.Netdev, miss, map[string]string{layout.CNPDSCP: "DSCP", layout.CNP802pPrio: "802.1p priority"}[miss], nic.Netdev)
}

// unmappedTrafficClass notes the traffic_class files of RDMA ports that no
// checked NIC maps to: the Force-DSCP setting there applies to no netdev
// qoslint judges, so it is read by nothing.
func (r *reader) unmappedTrafficClass(host string, nics []*collectors.NICCapture) {
	root := r.devicePath(host, layout.SysfsDir)
	files, err := fs.Glob(r.fsys, layout.TrafficClassPath(root, "*", "*"))
	if err != nil {
		return
	}
	used := map[string]bool{}
	for _, n := range nics {
		if n.IBDev != "" {
			used[n.IBDev+"/"+strconv.Itoa(n.Port)] = true
		}
	}
	var unmapped []string
	for _, f := range files {
		parts := strings.Split(strings.TrimPrefix(f, layout.InfinibandDir(root)+"/"), "/")
		if len(parts) != 4 || used[parts[0]+"/"+parts[2]] {
			continue
		}
		unmapped = append(unmapped, fmt.Sprintf("%s port %s", parts[0], parts[2]))
	}
	sort.Strings(unmapped)
	for _, u := range unmapped {
		dev, port, _ := strings.Cut(u, " port ")
		r.note(source.Pos{File: layout.TrafficClassPath(root, dev, port)},
			"traffic_class of %s is not read: no checked NIC maps to %s in %s", u, u, layout.IBDev2NetdevFile)
	}
}
