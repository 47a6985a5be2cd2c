package checks

import "github.com/qoslint/qoslint/model"

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
)

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
