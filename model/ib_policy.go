package model

// SMPolicy is OpenSM's QoS policy file as it decides the SL of path
// records (linux-rdma/opensm doc/QoS_management_in_OpenSM.txt §1: a
// PathRecord/MultiPathRecord request is matched against the policy's
// rules, and the matching QoS level's SL goes into the path record).
type SMPolicy struct {
	// Path is the file OpenSM reads: opensm.conf's qos_policy_file, else
	// its compiled-in default (layout.QoSPolicyPath).
	Path Value[string]
	// File is the collected file's path ("": not collected).
	File string
	// DefaultSL is the SL of a request no rule matches; Known false when
	// the file was not collected, defines no default (then NoDefault) or
	// its DEFAULT level sets no SL.
	DefaultSL Value[int]
	NoDefault bool
}
