// Package inventory reads a fabric's inventory: its devices and the intended
// RoCE QoS policy, from inventory.yaml or inventory.hcl (the same schema).
package inventory

import (
	"time"

	"github.com/qoslint/qoslint/internal/source"
)

// Inventory is one fabric.
type Inventory struct {
	// File is the inventory file as given to Load (used in evidence).
	File   string
	Fabric string
	// FabricType is FabricEthernet ("" when not written: the default),
	// FabricInfiniBand or FabricMixed: which of the RoCE and InfiniBand
	// checks apply.
	FabricType string
	Policy     Policy
	Switches   []Switch
	Hosts      []Host
	// SSH is how live collectors reach the devices.
	SSH SSH
	// GNMI is how live collectors reach the switches' gNMI servers for
	// counters; the switches' SSH username and password_env log in.
	GNMI GNMI
	// Checks are the checks the inventory enables and disables (the
	// checks section); package checks resolves the names and merges them
	// with --enable and --disable.
	Checks CheckSelection
}

// CheckSelection is the checks section: check IDs or kinds, as written.
type CheckSelection struct {
	Enable, Disable []CheckName
}

// CheckName is one name of the checks section, at its line.
type CheckName struct {
	Name string
	Pos  source.Pos
}

// GNMI holds the switches' gNMI connection settings. The zero value (no
// gnmi section) is plaintext on the default port.
type GNMI struct {
	// Port is the gNMI port; 0 means the Cumulus default, 9339. A switch's
	// GNMIPort overrides it.
	Port int
	// TLS dials with TLS; CAFile (relative to the inventory's folder) is the
	// CA bundle that verifies the switch, empty for the system roots.
	TLS    bool
	CAFile string
	// SkipVerify accepts any server certificate (TLS only).
	SkipVerify bool
	// Timeout bounds one switch's collection; 0 means the collector's
	// default.
	Timeout time.Duration
}

// SSH holds connection settings and credential references. The inventory
// names where secrets come from, never the secrets themselves.
type SSH struct {
	// KnownHosts is the known_hosts file host keys are verified against;
	// relative paths are relative to the inventory file's folder. Empty
	// means ~/.ssh/known_hosts.
	KnownHosts string
	// JumpHost is ssh.jump_host, the jump host every device is reached
	// through unless its group or itself names another (or "none");
	// "" for none. See Credentials.JumpHost.
	JumpHost string
	// Switches and Hosts are the defaults of each group; a device's own
	// Credentials override them field by field.
	Switches, Hosts Credentials
}

// Credentials say how to log in to a device.
type Credentials struct {
	Username string
	// PasswordEnv names the environment variable that holds the password.
	PasswordEnv string
	// KeyFile is a private key file (relative to the inventory's folder, ~
	// expanded by the collector).
	KeyFile string
	// Agent uses the ssh-agent at $SSH_AUTH_SOCK.
	Agent bool
	// Port is the SSH port; 0 means 22.
	Port int
	// Sudo runs the host commands that need root (mlnx_qos) as `sudo -n`.
	Sudo bool
	// JumpHost is the SSH jump host the device is reached through, as
	// OpenSSH's ProxyJump writes it: [user@]host[:port] (ParseJumpHost).
	// "none" (in a group or device, to undo a default) is kept here and
	// turned into "" by the credential merge; "" means a direct connection.
	JumpHost string
}

// Policy is the intent every device is checked against. Load fills every
// field: explicit values win over the preset's, the preset's over the
// cumulus-default ones.
type Policy struct {
	// Preset is the named preset the policy started from ("cumulus-default"
	// when none was named).
	Preset string
	RoCE   RoCEPolicy
	CNP    CNPPolicy
	// Trust is what hosts must trust: "dscp" (switches must then trust l3 or
	// both) or "pcp" (switches l2 or both).
	Trust string
	MTU   MTUPolicy
	ECMP  ECMPPolicy
	PFC   PFCPolicy
	// Rails is the rail rule: Rails[k] are the leaves NIC k of every host
	// must plug into (several when the rail spans several planes); nil
	// when the inventory sets none.
	Rails [][]string
	// IB is the InfiniBand intent (ib: {sl, vl}).
	IB IBPolicy
	// Pos is where each set field was written, keyed by its dotted schema
	// path ("roce.dscp", "cnp.priority", "mtu.host", "ecmp.hash_fields", ...).
	// Fields that came from a preset or default are absent.
	Pos map[string]source.Pos
}

// RoCEPolicy is the RoCE data traffic's marking.
type RoCEPolicy struct {
	DSCP         []int // sorted, unique; never empty after Load
	Priority     int   // switch priority and NIC priority, 0..7
	TrafficClass int   // switch traffic class (egress queue), 0..7
	// Mode is the switch RoCE mode required: one of RoCEModes; "lossless"
	// by default.
	Mode string
	// MinBandwidth is the least DWRR bw-percent the switches' RoCE traffic
	// class must get (1..100); 50 by default, what qos roce gives it.
	MinBandwidth int
	// HostTSA is how the NIC must schedule the RoCE priority's traffic
	// class: one of HostTSAs; "ets" by default.
	HostTSA string
}

// HostTSAs are the transmission algorithms a policy may ask of the NIC's
// RoCE traffic class (mlnx_qos --tsa, Mellanox/mlnx-tools python/mlnx_qos):
// "ets", a guaranteed bandwidth share, or "strict". "vendor" (mlx5's own
// default) is no policy: it guarantees nothing.
var HostTSAs = []string{"ets", "strict"}

// RoCEModes are the `nv set qos roce mode` values of Cumulus Linux 5.x
// (CumulusNetworks/docs content/cumulus-linux-518/Layer-1-and-Switch-Ports/
// Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md); model/roce_modes.go
// holds what each configures.
var RoCEModes = []string{"lossless", "lossy", "lossless-single-ipool", "lossy-multi-tc", "dci-1"}

// Lossless reports whether the required mode has PFC: lossless,
// lossless-single-ipool and dci-1 (its traffic class 3 "with PFC"); lossy and
// lossy-multi-tc have none. model.LosslessMode says the same (tested).
func (r RoCEPolicy) Lossless() bool {
	switch r.Mode {
	case "lossless", "lossless-single-ipool", "dci-1":
		return true
	}
	return false
}

// CNPPolicy is the congestion notification packets' marking.
type CNPPolicy struct {
	DSCP     int
	Priority int
}

// MTUPolicy holds minimum MTUs.
type MTUPolicy struct {
	Host   int
	Switch int
}

// PFCPolicy is what lossless ports must be sized for.
type PFCPolicy struct {
	// CableLength is the longest cable, in metres, that a PFC port's
	// headroom must cover: a switch must configure at least this. The
	// default is NVUE's qos roce default, 100 m (CumulusNetworks/docs
	// content/nvue-reference/, nv set qos roce cable-length: "The default
	// setting is 100 meters").
	CableLength int
}

// ECMPPolicy is what the switches must hash on.
type ECMPPolicy struct {
	// HashFields are NVUE ecmp-hash field names (source-ip, destination-ip,
	// source-port, destination-port, ip-protocol, ipv6-label, ...).
	HashFields      []string
	AdaptiveRouting bool
}

// Switch is one NVUE switch.
type Switch struct {
	Name    string
	Role    string // leaf, spine, super-spine, border
	Address string
	// Ports restricts the check to these ports (NVUE range syntax allowed,
	// e.g. "swp1-32"); empty means every swp port in the switch's config.
	Ports       []string
	Credentials Credentials
	// GNMIPort overrides GNMI.Port for this switch; 0 means no override.
	GNMIPort int
	// Platform is the switch model (SN5600) where the configuration's
	// header does not name it: `nv config show -o commands` prints no
	// header, and NVIDIA's generated command files carry none. "" when the
	// inventory does not say.
	Platform string
	// PlatformLine is the inventory line of Platform (0 when unset).
	PlatformLine int
	Pos          source.Pos
}

// Host is one GPU server.
type Host struct {
	Name    string
	Address string
	// NICs restricts the check to these netdevs; empty means every netdev in
	// the host's ibdev2netdev.txt.
	NICs        []string
	Credentials Credentials
	Pos         source.Pos
	// K8sNode is the host's Kubernetes node name (k8s_node) and K8sLabels
	// its node labels (k8s_labels); both empty when the inventory does not
	// map the host to a node.
	K8sNode   string
	K8sLabels map[string]string
	// K8sPos is where the mapping was written.
	K8sPos source.Pos
}
