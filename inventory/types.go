// Package inventory reads a fabric's inventory: its devices and the intended
// RoCE QoS policy, from inventory.yaml or inventory.hcl (the same schema).
package inventory

import (
	"time"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/policy"
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
	Policy     policy.Policy
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
	// OS is the switch operating system whose files describe it: OSCumulus
	// (Cumulus Linux, NVUE; the default) or OSSONiC. Offline, a switch
	// whose inventory entry names none is SONiC when its folder holds
	// config_db.json and no NVUE file (collectors/offline). OSLine is the
	// inventory line of an explicit os (0 when unset).
	OS     string
	OSLine int
	Pos    source.Pos
}

// The switch operating systems qoslint reads.
const (
	OSCumulus = layout.OSCumulus
	OSSONiC   = layout.OSSONiC
)

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
