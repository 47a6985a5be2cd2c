package checks

// ChangeKind says which tool applies a change.
type ChangeKind int

const (
	// NVUE is `nv set <Path...> <Value>`; rollback `nv set ... <Old>` or,
	// without Old, `nv unset <Path...>`. Value "" sets a bare object.
	NVUE ChangeKind = iota
	// NVUEUnset is `nv unset <Path...>`; rollback `nv set <Path...> <Old>`
	// (Old "" re-creates a collection member).
	NVUEUnset
	// MlnxQos is `mlnx_qos -i <Target> <Flag> <Value>`.
	MlnxQos
	// Sysfs is a write of Value to the sysfs file Target.
	Sysfs
	// NCCLConf sets KEY=Value (Path[0] is the key) in the nccl.conf Target;
	// an empty Value deletes the key's lines.
	NCCLConf
	// LinkMTU is `ip link set dev <Target> mtu <Value>`.
	LinkMTU
	// OpenSMConf sets the option Path[0] to Value in the opensm.conf
	// Target (a new line without HasOld); OpenSMReload makes OpenSM re-read
	// it and sweep (kill -HUP, linux-rdma/opensm opensm/main.c). Both run
	// on Change.Device, the subnet manager's host.
	OpenSMConf
	OpenSMReload
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
	// RollbackUnset, when set and HasOld is false, is the NVUE path the
	// rollback unsets instead of Path.
	RollbackUnset []string
	// Device is the device the change runs on when it is not the
	// finding's (an InfiniBand port's fix lives on the SM's host).
	Device string
}

func nvSet(old string, hasOld bool, value string, path ...string) Change {
	return Change{Kind: NVUE, Path: path, Value: value, Old: old, HasOld: hasOld}
}

func nvUnset(old string, path ...string) Change {
	return Change{Kind: NVUEUnset, Path: path, Old: old, HasOld: true}
}
