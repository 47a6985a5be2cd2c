package checks

// The switches' device files the check tests of several switch checks edit.

var (
	spine01Y = dev("spine01", "nv-config.yaml")
	spine02C = dev("spine02", "nv-config-commands.txt")
	leaf01Y  = dev("leaf01", "nv-config.yaml") // CL 5.14 syntax
	leaf02Y  = dev("leaf02", "nv-config.yaml") // CL 5.18, custom profiles on swp1-32
	leaf01S  = dev("leaf01", "nv-show-qos-roce.txt")
)

// wantAR is the inventory edit that makes the policy ask for adaptive
// routing.
var wantAR = replace("inventory.hcl", "preset = \"cumulus-default\"", "preset = \"cumulus-default\"\n  ecmp {\n    adaptive_routing = true\n  }")
