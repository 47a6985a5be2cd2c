// Package hostfiles parses what a GPU server with ConnectX NICs prints:
// `mlnx_qos -i <netdev>`, `ibdev2netdev`, `ip -j link show`, /etc/nccl.conf
// and the mlx5 QoS sysfs files. It keeps the host's literal values; what they
// mean for RoCE (default maps, which ToS wins) is model/'s business.
package hostfiles

// MlnxQos is one `mlnx_qos -i <netdev>` output, any version from 2017 on.
type MlnxQos struct {
	File string
	// DCBXMode is "OS controlled" or "Firmware controlled"; "" if absent.
	DCBXMode string
	// Trust is "pcp", "dscp" or "none" as printed; "" when the output has no
	// trust line (old versions, or "Priority trust state is not supported").
	Trust     string
	TrustLine int
	// DSCP2Prio is the printed dscp2prio block (dscp → priority), merged
	// across wrapped lines; nil when the block is absent.
	DSCP2Prio     map[int]int
	DSCP2PrioLine int
	// PFC is the "enabled" row, priority 0..7; HasPFC false when absent.
	PFC     [8]bool
	HasPFC  bool
	PFCLine int
	// PrioBuffer is the "buffer" row (priority → receive buffer); nil when absent.
	PrioBuffer []int
	// BufferSizes is "Receive buffer size (bytes)"; MaxBufferSize the
	// max_buffer_size= or total_size= suffix (0 when absent).
	BufferSizes   []int
	MaxBufferSize int
	// CableLen is "Cable len:"; -1 when absent.
	CableLen int
	// TCs are the tc blocks in printed order.
	TCs []TC
	// PrioTC maps priority → TC from the tc blocks; -1 where no block lists it.
	PrioTC [8]int
	// Notes are the warnings and "not supported" lines the tool printed.
	Notes []string
}

// TC is one `tc: N ratelimit: R, tsa: T` block.
type TC struct {
	TC         int
	RateLimit  string // "unlimited" or "12.5 Gbps"
	TSA        string // "ets", "strict", "vendor", "unknown"
	BW         int    // ets bandwidth percent, 0 otherwise
	Priorities []int
	Line       int
}

// IBDev is one `ibdev2netdev` line: `mlx5_0 port 1 ==> ens1f0np0 (Up)`.
type IBDev struct {
	IBDev  string
	Port   int
	Netdev string
	State  string // "Up", "Down", "NA", or "" (old `<===>` form)
	Line   int
}

// NCCLConf is one nccl.conf (/etc/nccl.conf, ~/.nccl.conf or $NCCL_CONF_FILE)
// as NCCL itself reads it.
type NCCLConf struct {
	File string
	// Vars is what NCCL itself reads from the file: name → the first line
	// that sets it, value verbatim. Names are whatever precedes the first
	// '=', so a line such as "export NCCL_IB_TC=106" appears here under
	// "export NCCL_IB_TC".
	Vars map[string]NCCLVar
	// Notes are lines NCCL reads differently from how they look: ignored
	// duplicates, `export ` prefixes, spaces around '=', quoted values,
	// trailing comments, leading-zero (octal) or hex numbers. Sorted by line.
	Notes []NCCLNote
}

// NCCLVar is the line that sets one variable.
type NCCLVar struct {
	Value string
	Line  int
}

// NCCLNote says how NCCL reads one line differently from how it looks.
type NCCLNote struct {
	Line int
	// Key is the variable the line is meant to set (an NCCL_* name in
	// practice); "" when the line names none.
	Key string
	Msg string
}

// Link is one interface of `ip -j link show`.
type Link struct {
	Name      string
	MTU       int
	OperState string
	// LinkType is ip's link_type ("ether", "infiniband" for IPoIB); ""
	// when absent.
	LinkType string
	// MAC is the link-layer address, lowercased ("" when absent); an
	// InfiniBand port's is 20 bytes, not a MAC.
	MAC string
	// Line is where the interface's object starts in the JSON file.
	Line int
}

// Sysfs holds the mlx5 sysfs files read for one netdev. A nil pointer means
// the file was not collected.
type Sysfs struct {
	ECNNP       [8]*SysfsInt // class/net/<netdev>/ecn/roce_np/enable/<prio>
	ECNRP       [8]*SysfsInt // class/net/<netdev>/ecn/roce_rp/enable/<prio>
	CNPDSCP     *SysfsInt    // class/net/<netdev>/ecn/roce_np/cnp_dscp
	CNP802pPrio *SysfsInt    // class/net/<netdev>/ecn/roce_np/cnp_802p_prio
	// TrafficClass is class/infiniband/<ibdev>/tc/<port>/traffic_class.
	TrafficClass *TrafficClass
}

// SysfsInt is a sysfs attribute printed as "%d\n".
type SysfsInt struct {
	Value int
	File  string
}

// TrafficClass is the Force-DSCP file of MLNX_OFED's mlx5_ib.
type TrafficClass struct {
	File string
	// Global is the "Global tclass=N" override; -1 when the file is empty
	// (unset, the driver's initial state).
	Global int
	Rules  []TClassRule
}

// TClassRule is one per-destination rule line, e.g.
// "dst_ip=10.0.0.0/8,tclass=106".
type TClassRule struct {
	Match  string // the text before ",tclass="
	TClass int
	Line   int
}
