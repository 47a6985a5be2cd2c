package checks

import (
	"fmt"

	"github.com/qoslint/qoslint/model"
)

// ChangeKind says which tool applies a change.
type ChangeKind int

const (
	// NVUE is `nv set <Path...> <Value>`; rollback `nv set ... <Old>` or,
	// without Old, `nv unset <Path...>`. Value "" sets a bare object.
	NVUE ChangeKind = iota
	// NVUEUnset is `nv unset <Path...>`; rollback `nv set <Path...> <Old>`
	// (Old "" re-creates a collection member).
	NVUEUnset
	// MlnxQos is `mlnx_qos -i <Target> <Flag> <Value>`, followed by
	// `<Flag2> <Value2>` when Flag2 is set.
	MlnxQos
	// Sysfs is a write of Value to the sysfs file Target.
	Sysfs
	// NCCLConf sets KEY=Value (Path[0] is the key) in the nccl.conf Target;
	// an empty Value deletes the key's lines.
	NCCLConf
	// LinkMTU is `ip link set dev <Target> mtu <Value>`.
	LinkMTU
	// Mlxconfig is `mlxconfig -d <Target> -y set <Path[0]>=<Value>`, the
	// NIC firmware's persistent configuration: it takes effect only after
	// a firmware reset (mlxfwreset) or a cold reboot.
	Mlxconfig
	// SetPCI is `setpci -s <Target> ECAP_ACS+0x6.w=<Value>`, the ACS
	// Control register of a PCI bridge (not persistent across reboots).
	SetPCI
	// OpenSMConf sets the option Path[0] to Value in the opensm.conf
	// Target (a new line without HasOld); OpenSMReload makes OpenSM re-read
	// it and sweep (kill -HUP, linux-rdma/opensm opensm/main.c). Both run
	// on Change.Device, the subnet manager's host.
	OpenSMConf
	OpenSMReload
	// KubectlPatch is `kubectl patch <Target> <Path[0]> -n <Path[1]>
	// --type=json -p <Value>`: a JSON patch (RFC 6902) of a Kubernetes
	// object, Target its resource ("configmap", "pytorchjob.kubeflow.org");
	// Old is the JSON patch that rolls it back.
	KubectlPatch
	// SwitchSetting is Change.Set on a switch whose OS is not Cumulus: the
	// switch OS's fix renderer spells it in that OS's configuration
	// (templates/gcu for SONiC's config_db).
	SwitchSetting
)

// Aspect is what a switch Setting sets.
type Aspect int

// The aspects, with the meaning of Setting.Key and Setting.Value.
const (
	// DSCPPriority maps DSCP Key to switch priority Value.
	DSCPPriority Aspect = iota + 1
	// PCPPriority maps 802.1p value Key to switch priority Value.
	PCPPriority
	// TrustDSCP classifies by DSCP (and 802.1p) instead of the port.
	TrustDSCP
	// PFCPriority turns PFC on (On) or off for switch priority Key.
	PFCPriority
	// PriorityQueue sends switch priority Key to traffic class Value.
	PriorityQueue
	// QueueECN marks ECN on traffic class Key (On).
	QueueECN
	// QueueStrict schedules traffic class Key strict.
	QueueStrict
	// QueueShare schedules traffic class Key DWRR with at least Value
	// percent of the port.
	QueueShare
	// PortMTU sets the ports' MTU to Value bytes.
	PortMTU
	// CableLength sizes the ports' lossless headroom for Value metres.
	CableLength
	// PFCWatchdog turns the PFC watchdog on (On) on the ports.
	PFCWatchdog
	// ECMPHashField hashes ECMP on Field (NVUE's name, model.ECMPFields).
	ECMPHashField
	// LosslessPG gives priority group Key of the ports a lossless buffer
	// profile sized for their speed and cable length.
	LosslessPG
)

// Setting is what a switch change means whatever the switch's OS. The
// Change's NVUE path is Cumulus's spelling of it; another OS's fix
// renderer reads the Setting, so a new switch OS needs no check changed.
type Setting struct {
	Aspect Aspect
	// Ports are the ports it is for: a port group, or every port the
	// switch's model judged when the setting is the switch's.
	Ports []string
	Key   int
	Value int
	On    bool
	Field string
}

// String says the setting in words, for a report line where the OS's
// renderer has no configuration to spell it against.
func (s Setting) String() string {
	var what string
	switch s.Aspect {
	case DSCPPriority:
		what = fmt.Sprintf("DSCP %d → switch priority %d", s.Key, s.Value)
	case PCPPriority:
		what = fmt.Sprintf("802.1p %d → switch priority %d", s.Key, s.Value)
	case TrustDSCP:
		what = "classify by DSCP"
	case PFCPriority:
		what = fmt.Sprintf("PFC on switch priority %d", s.Key)
		if !s.On {
			what = fmt.Sprintf("no PFC on switch priority %d", s.Key)
		}
	case PriorityQueue:
		what = fmt.Sprintf("switch priority %d → traffic class %d", s.Key, s.Value)
	case QueueECN:
		what = fmt.Sprintf("ECN marking on traffic class %d", s.Key)
	case QueueStrict:
		what = fmt.Sprintf("traffic class %d strict", s.Key)
	case QueueShare:
		what = fmt.Sprintf("traffic class %d DWRR, at least %d%%", s.Key, s.Value)
	case PortMTU:
		what = fmt.Sprintf("MTU %d", s.Value)
	case CableLength:
		what = fmt.Sprintf("cable length %d m", s.Value)
	case PFCWatchdog:
		what = "PFC watchdog on"
	case ECMPHashField:
		what = "ECMP hashes on " + s.Field
	case LosslessPG:
		what = fmt.Sprintf("a lossless buffer profile for priority group %d", s.Key)
	default:
		what = fmt.Sprintf("aspect %d", s.Aspect)
	}
	switch len(s.Ports) {
	case 0:
	case 1:
		what += ", port " + s.Ports[0]
	default:
		what += ", ports " + model.CompressNames(s.Ports)
	}
	return what
}

// Change is one corrective action with what it replaces.
type Change struct {
	Kind   ChangeKind
	Target string
	Path   []string
	Flag   string
	Value  string
	// Old is the value before the change; HasOld false means there was no
	// explicit setting (rollback unsets or deletes).
	Old    string
	HasOld bool
	// Flag2, Value2 and Old2 are a second flag of the same mlnx_qos
	// command: --tcbw goes with --tsa, since mlnx_qos keeps the current
	// bandwidths for a --tsa alone and the driver then refuses a share for
	// a TC that is no longer ETS (Mellanox/mlnx-tools python/mlnx_qos, "ETS
	// BW for a strict/vendor TC must be 0").
	Flag2, Value2, Old2 string
	// RollbackUnset, when set and HasOld is false, is the NVUE path the
	// rollback unsets instead of Path.
	RollbackUnset []string
	// Device is the device the change runs on when it is not the
	// finding's (an InfiniBand port's fix lives on the SM's host).
	Device string
	// Set is what a switch change means, OS-neutral; nil where the check
	// has no meaning to give beyond the NVUE path.
	Set *Setting
}

// with gives a switch change its meaning.
func (c Change) with(s Setting) Change {
	c.Set = &s
	return c
}

// release is the release whose NVUE spelling a switch's fix uses.
func release(sw *model.Switch) model.CLRelease {
	r, _ := sw.CommandRelease()
	return r
}

func nvSet(old string, hasOld bool, value string, path ...string) Change {
	return Change{Kind: NVUE, Path: path, Value: value, Old: old, HasOld: hasOld}
}

func nvUnset(old string, path ...string) Change {
	return Change{Kind: NVUEUnset, Path: path, Old: old, HasOld: true}
}

// portsOf is the ports a port group's setting is for: the group's, or
// every port of the switch for the group of a switch whose configuration
// names none.
func portsOf(sw *model.Switch, g model.PortGroup) []string {
	if len(g.Ports) > 0 {
		return g.Ports
	}
	return sw.Ports
}
