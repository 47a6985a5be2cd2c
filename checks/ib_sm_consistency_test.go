package checks

import (
	"testing"
)

var _ = register(ibSMConsistency, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean", edits: []edit{ibPod()}},
		{name: "port differs", edits: []edit{ibPod(), replace(ibSL2VLFile, ibRow, "ports: in  0, out  0: | 0|15|")},
			want: []string{"error gpu02 mlx5_0/1"}, msg: "SL2VL (devices/sm01/opensm.conf:25) differ"},
		{name: "defaults apply", edits: []edit{ibPod(), replace(ibSMConf, "qos_ca_vlarb_low 0:0,1:64,2:128,3:192,4:0,5:64,6:64,7:64\n", "")},
			want: []string{"error gpu01 mlx5_0/1", "error gpu02 mlx5_0/1", "error sm01 mlx5_0/1"}, msg: "low VL arbitration (OpenSM default"},
		// qos_high_limit 6 reaches the CAs (their own line gone) and the
		// switch's port 0 (no qos_sw0_ line), which holds 0.
		{name: "qos_ fall-back", edits: []edit{ibPod(), replace(ibSMConf, "qos_ca_high_limit 6\n", ""), replace(ibSMConf, "qos_high_limit -1", "qos_high_limit 6")},
			want: []string{"error sm01 ib-leaf01 (lid 4) port 0"}, msg: "qos_sw0_ class: VLHighLimit (devices/sm01/opensm.conf:"},
		{name: "switch external port", edits: []edit{ibPod(), replace(swSL2VL1, "ports: in 17, out  1: | 0| 1|", "ports: in 17, out  1: | 0| 3|")},
			want: []string{"error sm01 ib-leaf01 (lid 4) port 1"}, msg: "qos_swe_ class: SL2VL (devices/sm01/opensm.conf:"},
		{name: "switch qos_swe_ own line", edits: []edit{ibPod(), replace(ibSMConf, "qos_swe_vlarb_low 0:0,1:64,", "qos_swe_vlarb_low 0:0,1:32,")},
			want: []string{"error sm01 ib-leaf01 (lid 4) port 1", "error sm01 ib-leaf01 (lid 4) port 2", "error sm01 ib-leaf01 (lid 4) port 3"}, msg: "low VL arbitration (devices/sm01/opensm.conf:"},
		{name: "switch SL2VL by torus-2QoS", edits: []edit{ibPod(), replace(ibSMConf, "qos TRUE", "qos TRUE\nrouting_engine torus-2QoS"),
			replace(swSL2VL1, "ports: in 17, out  1: | 0| 1|", "ports: in 17, out  1: | 0| 3|")}},
		{name: "qos FALSE programs nothing", edits: []edit{ibPod(), replace(ibSMConf, "qos TRUE", "qos FALSE"), replace(ibSL2VLFile, ibRow, "ports: in  0, out  0: | 0|15|")}},
		{name: "high limit", edits: []edit{ibPod(), replace(ibPIFile, "VLHighLimit:.....................6", "VLHighLimit:.....................0")},
			want: []string{"error gpu01 mlx5_0/1"}, msg: "VLHighLimit"},
	}
})
