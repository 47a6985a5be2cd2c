// Package nvue parses what NVIDIA Cumulus Linux 5.x (NVUE) prints: the
// configuration as YAML (`nv config show -o yaml`, /etc/nvue.d/startup.yaml) or
// as commands (`nv config show -o commands`), and the operational
// `nv show qos roce` table. It keeps the device's literal text; what the
// settings mean (defaults, ranges, profiles) is model/'s business. It also
// writes a configuration back in either form (FormatYAML, FormatCommands)
// and applies `nv set`/`nv unset` commands to one (Config.Apply), so that a
// fix can be previewed and a new switch's configuration generated.
package nvue

// Node is one object or leaf of an NVUE configuration tree, as written. Keys
// are not expanded: "swp1-4,swp6" stays one key; model/ expands them.
type Node struct {
	Key string
	// Value is the scalar of a leaf (`mode: lossless`, `nv set qos roce mode
	// lossless`), unquoted and as written ("on", "enabled", "26").
	Value string
	// IsLeaf is true when the node carries a scalar value. An object written
	// `key: {}` or a bare `nv set a b` is not a leaf and has no children.
	IsLeaf bool
	// Children are the object's members in first-seen order.
	Children []*Node
	// Line is where the key (YAML) or the command that last set it
	// (commands) stands in the file.
	Line int
	// Column is the key's column in a YAML file (1-based); 0 in the command
	// form, where the whole line is the evidence.
	Column int
}

// Child returns the member with exactly this key, or nil. It scans: the
// objects a reader looks into are small, and the parsers, which look up
// members of objects with a hundred thousand, use their own index (tree.go).
func (n *Node) Child(key string) *Node {
	if n == nil {
		return nil
	}
	for _, c := range n.Children {
		if c.Key == key {
			return c
		}
	}
	return nil
}

// Get walks exact keys from n; nil when any is absent.
func (n *Node) Get(path ...string) *Node {
	for _, k := range path {
		n = n.Child(k)
		if n == nil {
			return nil
		}
	}
	return n
}

// Config is one switch's NVUE configuration.
type Config struct {
	// File is the path the parser was given (relative to the fabric
	// directory), used in evidence.
	File string
	// Format is "yaml" or "commands".
	Format string
	// Version is the header's `version:` ("Cumulus Linux 5.9.2"); "" when the
	// source has no header (commands never do).
	Version string
	// Header is every field of the YAML `- header:` in file order (model,
	// nvue-api-version, rev-id, version, and any other), so that a file
	// written back (FormatYAML) keeps them all; nil for commands.
	Header []HeaderField
	// Root is the tree below `set:` with every `unset:` applied; Key "".
	Root *Node
}

// HeaderField is one `key: value` of a YAML header.
type HeaderField struct {
	Key string
	// Value is a scalar's value as read ("MSN2010", "1.0"); "" for a
	// mapping or list.
	Value string
	// YAML is the value written back as YAML, style and tag kept
	// (`1.0` stays a float, `'*'` stays quoted): one line for a scalar or
	// a flow collection, lines indented from column 1 for a block one.
	YAML string
}

// Field is one leaf row of an `nv show` table.
type Field struct {
	Operational string
	Applied     string
	Line        int
}

// Value is what the device does: the operational column, else the applied
// one (NVUE leaves operational empty for leaves it only stores).
func (f Field) Value() string {
	if f.Operational != "" {
		return f.Operational
	}
	return f.Applied
}

// RoceShow is `nv show qos roce` (global view, CL 5.3 to 5.18) or
// `nv show interface <if> qos roce status` (per-interface view).
type RoceShow struct {
	File string
	// Leaves holds the leaf rows keyed by their path in the table, dotted:
	// "enable" (≤5.14) or "state" (5.18), "mode", "cable-length",
	// "pfc.pfc-priority", "pfc.rx-enabled", "congestion-control.enabled-tc",
	// "trust.trust-mode", "lldp-app-tlv.priority", ...
	Leaves map[string]Field
	// DSCPToSP and PCPToSP come from "RoCE PCP/DSCP->SP mapping
	// configurations"; nil when the table is absent.
	DSCPToSP map[int]int
	PCPToSP  map[int]int
	// MappingLine is the line of that table's title.
	MappingLine int
	// SPToTC and SPScheduler ("DWRR-50%", "strict-priority", "dwrr-50%",
	// "strict priority" as printed) come from "RoCE SP->TC mapping and ETS
	// configurations"; nil when absent.
	SPToTC      map[int]int
	SPScheduler map[int]string
	ETSLine     int
	// DSCPLines and SPLines give each row's own line: the mapping row that
	// lists a DSCP, the ETS row of a switch priority.
	DSCPLines, SPLines map[int]int
	// PerInterface is set for `nv show interface <if> qos roce status`:
	// its prompt names that command, its mapping rows are named roce and
	// cnp, or its pool table is "RoCE Pool Status".
	PerInterface bool
	// Interface is the <if> of a per-interface view whose prompt line was
	// kept (the docs' examples); "" when the output starts at its table.
	Interface string
	// Pools are "RoCE pool config" (global) or "RoCE Pool Status" (per
	// interface); PoolLine is that title's line, 0 when absent.
	Pools    []RocePool
	PoolLine int
}

// RocePool is one row of the RoCE pool table: `roce-reserved-egress
// Dynamic inf - 3`. SPs and TCs are nil where the cell is `-`.
type RocePool struct {
	Name, Mode, Size string
	SPs, TCs         []int
	Line             int
}
