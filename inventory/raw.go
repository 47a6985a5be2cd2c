package inventory

// The YAML and HCL front ends both translate their file into a rawInventory:
// what the user wrote, field by field, with the line of each. One build step
// then applies defaults and presets and validates, so both formats give the
// same result and the same messages.

// field is one value the user wrote. Set is false when the key is absent (or
// null in YAML, so a key can be blanked out without deleting it).
type field[T any] struct {
	Set  bool
	V    T
	Line int
}

// list is a list the user wrote. Lines[i] is the line of V[i] when the format
// gives it (Lines may be shorter than V; missing lines fall back to Line).
type list[T any] struct {
	Set   bool
	V     []T
	Line  int
	Lines []int
}

func (l list[T]) lineOf(i int) int {
	if i < len(l.Lines) && l.Lines[i] > 0 {
		return l.Lines[i]
	}
	return l.Line
}

type rawPolicy struct {
	Line             int // the policy key or block; 0 when absent
	Preset           field[string]
	RoCEDSCP         list[int]
	RoCEPriority     field[int]
	RoCETrafficClass field[int]
	RoCEMode         field[string]
	RoCEMinBandwidth field[int]
	RoCEHostTSA      field[string]
	CNPDSCP          field[int]
	CNPPriority      field[int]
	Trust            field[string]
	MTUHost          field[int]
	MTUSwitch        field[int]
	HashFields       list[string]
	AdaptiveRouting  field[bool]
	CableLength      field[int]
	// RailGroups is rails.groups: per rail, its leaves.
	RailGroups list[[]string]
	// IBSL and IBVL are ib.sl and ib.vl.
	IBSL, IBVL field[int]
	// IBAdaptiveRouting is ib.adaptive_routing.
	IBAdaptiveRouting field[bool]
}

// rawDevice is a switch or a host; Items holds a switch's ports or a host's
// NICs.
type rawDevice struct {
	Line    int
	Name    field[string]
	Role    field[string] // switches only
	Address field[string]
	Items   list[string]
	Creds   rawCreds
	// GNMIPort is a switch's gnmi_port, Platform its platform.
	GNMIPort field[int]
	Platform field[string]
	// OS is a switch's os: cumulus (the default) or sonic.
	OS field[string]
	// K8sNode and K8sLabels are a host's k8s_node and k8s_labels.
	K8sNode   field[string]
	K8sLabels field[map[string]string]
}

// rawCreds is an ssh group's defaults or a device's own login settings.
type rawCreds struct {
	Username, PasswordEnv, KeyFile field[string]
	Agent, Sudo                    field[bool]
	Port                           field[int]
	JumpHost                       field[string]
}

type rawSSH struct {
	KnownHosts      field[string]
	JumpHost        field[string]
	Switches, Hosts rawCreds
}

// rawGNMI is the gnmi section; Line is its key or block (0 when absent).
type rawGNMI struct {
	Line            int
	Port            field[int]
	TLS, SkipVerify field[bool]
	CAFile, Timeout field[string]
}

// rawChecks is the checks section.
type rawChecks struct {
	Enable, Disable list[string]
}

type rawInventory struct {
	Fabric field[string]
	// FabricType is fabric_type: infiniband, ethernet or mixed.
	FabricType field[string]
	Policy     rawPolicy
	SSH        rawSSH
	GNMI       rawGNMI
	Checks     rawChecks
	Switches   []rawDevice
	Hosts      []rawDevice
}
