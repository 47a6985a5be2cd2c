package sim

import (
	"fmt"
	"io"

	"gopkg.in/yaml.v3"

	"github.com/qoslint/qoslint/inventory"
)

// The inventory WriteInventory emits, in the schema of `qoslint help
// inventory` plus the ssh settings (`qoslint help live`). Field order is the
// output order.
type outInventory struct {
	Fabric     string      `yaml:"fabric"`
	FabricType string      `yaml:"fabric_type,omitempty"`
	Policy     outPolicy   `yaml:"policy"`
	SSH        outSSH      `yaml:"ssh"`
	GNMI       *outGNMI    `yaml:"gnmi,omitempty,flow"`
	Switches   []outSwitch `yaml:"switches,omitempty"`
	Hosts      []outHost   `yaml:"hosts,omitempty"`
}

type outPolicy struct {
	Preset string `yaml:"preset"`
	RoCE   struct {
		DSCP         []int  `yaml:"dscp,flow"`
		Priority     int    `yaml:"priority"`
		TrafficClass int    `yaml:"traffic_class"`
		Mode         string `yaml:"mode"`
	} `yaml:"roce,flow"`
	CNP struct {
		DSCP     int `yaml:"dscp"`
		Priority int `yaml:"priority"`
	} `yaml:"cnp,flow"`
	Trust string `yaml:"trust"`
	MTU   struct {
		Host   int `yaml:"host"`
		Switch int `yaml:"switch"`
	} `yaml:"mtu,flow"`
	ECMP struct {
		HashFields      []string `yaml:"hash_fields,flow"`
		AdaptiveRouting bool     `yaml:"adaptive_routing"`
	} `yaml:"ecmp"`
	Rails *outRails `yaml:"rails,omitempty"`
	IB    *outIB    `yaml:"ib,omitempty,flow"`
}

// outIB is policy.ib, written when the fabric has InfiniBand.
type outIB struct {
	SL              int   `yaml:"sl"`
	VL              *int  `yaml:"vl,omitempty"`
	AdaptiveRouting *bool `yaml:"adaptive_routing,omitempty"`
}

type outRails struct {
	Groups [][]string `yaml:"groups,flow"`
}

type outSSH struct {
	KnownHosts string   `yaml:"known_hosts"`
	Switches   outCreds `yaml:"switches,flow"`
	Hosts      outCreds `yaml:"hosts,flow"`
}

type outGNMI struct {
	TLS    bool   `yaml:"tls"`
	CAFile string `yaml:"ca_file,omitempty"`
}

// GNMICAFile is the ca_file WriteInventory names when gNMI runs over TLS,
// relative to the inventory's folder: write GNMICAPEM() there.
const GNMICAFile = "gnmi-ca.pem"

type outCreds struct {
	Username    string `yaml:"username"`
	PasswordEnv string `yaml:"password_env,omitempty"`
}

type outSwitch struct {
	Name    string `yaml:"name"`
	Role    string `yaml:"role"`
	Address string `yaml:"address"`
	Port    int    `yaml:"port"`
	// GNMIPort is set with Options.GNMI: every switch's gNMI server has its
	// own port.
	GNMIPort int      `yaml:"gnmi_port,omitempty"`
	Ports    []string `yaml:"ports,omitempty,flow"`
	// OS is written for a SONiC switch (and kept where the source
	// inventory names one): live collection reads the os from the
	// inventory alone.
	OS string `yaml:"os,omitempty"`
}

type outHost struct {
	Name    string   `yaml:"name"`
	Address string   `yaml:"address"`
	Port    int      `yaml:"port"`
	NICs    []string `yaml:"nics,omitempty,flow"`
}

// WriteInventory writes an inventory.yaml that points qoslint at the
// simulated devices: the source inventory's fabric and policy (every field
// written out, as Load filled it), its roles, ports and NICs, each device at
// the listen address with its own port, and ssh settings naming the
// known_hosts file (write KnownHosts() there; a relative path is relative to
// the inventory's folder) and the environment variable that holds the
// password ("" leaves password_env out, for key logins). With Options.GNMI
// it adds the gnmi section and each switch's gnmi_port; with GNMITLS the
// section names GNMICAFile as ca_file.
func (f *Fabric) WriteInventory(w io.Writer, knownHostsFile, passwordEnv string) error {
	if knownHostsFile == "" {
		return fmt.Errorf("sim: WriteInventory needs the known_hosts file name")
	}
	p := f.inv.Policy
	var out outInventory
	out.Fabric = f.inv.Fabric
	out.Policy.Preset = p.Preset
	out.Policy.RoCE.DSCP = p.RoCE.DSCP
	out.Policy.RoCE.Priority = p.RoCE.Priority
	out.Policy.RoCE.TrafficClass = p.RoCE.TrafficClass
	out.Policy.RoCE.Mode = p.RoCE.Mode
	out.Policy.CNP.DSCP = p.CNP.DSCP
	out.Policy.CNP.Priority = p.CNP.Priority
	out.Policy.Trust = p.Trust
	out.Policy.MTU.Host = p.MTU.Host
	out.Policy.MTU.Switch = p.MTU.Switch
	out.Policy.ECMP.HashFields = p.ECMP.HashFields
	out.Policy.ECMP.AdaptiveRouting = p.ECMP.AdaptiveRouting
	if len(p.Rails) > 0 {
		out.Policy.Rails = &outRails{Groups: p.Rails}
	}
	out.FabricType = f.inv.FabricType
	if f.inv.HasIB() {
		out.Policy.IB = &outIB{SL: p.IB.SL}
		if p.IB.HasVL {
			out.Policy.IB.VL = &p.IB.VL
		}
		if p.IB.HasAdaptiveRouting {
			out.Policy.IB.AdaptiveRouting = &p.IB.AdaptiveRouting
		}
	}
	creds := outCreds{Username: f.opt.User, PasswordEnv: passwordEnv}
	out.SSH = outSSH{KnownHosts: knownHostsFile, Switches: creds, Hosts: creds}
	if f.gnmi != nil {
		out.GNMI = &outGNMI{TLS: f.opt.GNMITLS}
		if f.opt.GNMITLS {
			out.GNMI.CAFile = GNMICAFile
		}
	}
	ip := f.hostIP.String()
	for _, s := range f.inv.Switches {
		out.Switches = append(out.Switches, outSwitch{
			Name: s.Name, Role: s.Role, Address: ip, Port: f.byName[s.Name].port, Ports: s.Ports,
			GNMIPort: f.gnmiPort(s.Name), OS: outOS(s.OS, f.byName[s.Name].os),
		})
	}
	for _, h := range f.inv.Hosts {
		out.Hosts = append(out.Hosts, outHost{
			Name: h.Name, Address: ip, Port: f.byName[h.Name].port, NICs: h.NICs,
		})
	}
	if _, err := fmt.Fprintf(w, "# Simulated fabric %s: every device listens on %s (qoslint sim).\n", f.inv.Fabric, ip); err != nil {
		return err
	}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(&out); err != nil {
		return err
	}
	return enc.Close()
}

// outOS is the os WriteInventory writes: the source inventory's, else
// sonic for a switch the simulator runs as SONiC, else none (Cumulus).
func outOS(declared, running string) string {
	if declared == "" && running == inventory.OSSONiC {
		return running
	}
	return declared
}
