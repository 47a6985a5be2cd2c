package checks

import (
	"fmt"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/nvnum"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

var hostFirmware = &Check{
	ID:       "host-firmware",
	Kind:     KindConfig,
	Devices:  Hosts,
	Severity: judge.Error,
	Title:    "The NIC firmware's persistent RoCE settings match the policy",
	Doc: `The driver loads a ConnectX NIC's CNP marking and congestion-control priorities from the
firmware's persistent configuration (mlxconfig CNP_DSCP_P<n>, CNP_802P_PRIO_P<n>,
ROCE_CC_PRIO_MASK_P<n>; the parameter descriptions in Mellanox/mstflint mlxconfig), and
Mellanox/nic-configuration-operator sets exactly these for RoCE (ROCE_CC_PRIO_MASK=255, CNP_802P_PRIO=6)
plus ROCE_ADAPTIVE_ROUTING_EN for Spectrum-X. sysfs settings (host-cnp, host-ecn) do not survive a
reboot or firmware reset; then these values apply. So the Next Boot column must give the policy's CNP
DSCP and priority, the RoCE priority's bit in the CC priority mask, link type ETH(2), and, where the
policy wants adaptive routing, ROCE_ADAPTIVE_ROUTING_EN True(1) (where it does not, the NIC setting is
not judged: the documentation gives no harm). A wrong link type is an error (the port would come up
InfiniBand), the others warnings (the runtime values may still be right until the next reset).
n is the port of ibdev2netdev; mlxconfig numbers the adapter's ports, so on an adapter whose second
port is a separate RDMA device (mlx5_1 port 1) the P1 values are judged: the documentation does not
say how mlxconfig maps PCI functions to ports, and the finding says so. The fix is
mlxconfig -d <ibdev> -y set NAME=VALUE, then a firmware reset (mlxfwreset) or a cold reboot.`,
	Inputs: []Input{MlxconfigQ, IBDev2Netdev},
	Run:    runHostFirmware,
}

func runHostFirmware(f *model.Fabric) []Finding {
	var out []Finding
	for _, h := range f.Hosts {
		var missing []string
		for _, n := range h.NICs {
			if n.Firmware == nil {
				if n.IBDev != "" {
					missing = append(missing, layout.MlxConfigFile(n.IBDev)+" not collected")
				}
				continue // no RDMA device: ibdev2netdev's not-collected says so
			}
			fs, miss := judgeFirmware(f, h, n)
			out, missing = append(out, fs...), append(missing, miss...)
		}
		if len(missing) > 0 {
			out = append(out, notCollected(h.Name, missing, "firmware configuration"))
		}
	}
	return out
}

func judgeFirmware(f *model.Fabric, h *model.Host, n *model.NIC) (out []Finding, missing []string) {
	fw := n.Firmware
	for _, w := range judge.FirmwareWants(f.Policy, n.Port) {
		p, ok := fw.Param(w.Name)
		if !ok {
			missing = append(missing, w.Name+" not in "+layout.MlxConfigFile(n.IBDev))
			continue
		}
		j := judge.FirmwareParam(f.Policy, n.Port, w.Name, p.Next)
		if j.OK {
			continue
		}
		v, num := nvnum.MlxNum(p.Next)
		msg := fmt.Sprintf("%s of %s (%s port %d) is %s at the next boot: %s", w.Name, n.IBDev, n.Netdev, n.Port, p.Next, w.Why)
		if p.Current != "" && p.Current != p.Next {
			msg += fmt.Sprintf(" (current value %s; the Next Boot value applies after a firmware reset)", p.Current)
		}
		if n.Port > 1 || n.IBDev != fw.Device {
			msg += "; mlxconfig numbers the adapter's ports, qoslint takes the port from ibdev2netdev"
		}
		want, old := w.Want, p.Next
		if num {
			old = strconv.Itoa(v)
			if w.Name == "ROCE_CC_PRIO_MASK_P"+strconv.Itoa(n.Port) {
				// Add the RoCE priority's bit; keep the others as they are.
				want = strconv.Itoa(v | 1<<f.Policy.RoCE.Priority)
			}
		}
		out = append(out, Finding{
			Severity: j.Severity, Device: h.Name, Interface: n.Netdev,
			Message:  msg + ". Setting it needs a firmware reset (mlxfwreset) or a cold reboot",
			Expected: w.Name + " = " + want,
			Actual:   w.Name + " = " + p.Next,
			Source:   source.Pos{File: fw.File, Line: p.Line},
			Changes:  []Change{{Kind: Mlxconfig, Target: n.IBDev, Path: []string{w.Name}, Value: want, Old: old, HasOld: true}},
		})
	}
	return out, missing
}
