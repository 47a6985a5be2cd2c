package model

import "fmt"

// The RoCE marking arithmetic. Sources:
//   - the DSCP on the wire is the QP traffic class >> 2:
//     `MLX5_SET(ads, path, dscp, qp->tclass >> 2);` (knneth/mlnx-ofa_kernel
//     drivers/infiniband/hw/mlx5/qp.c), so ToS = DSCP<<2 | ECN;
//   - the default NIC dscp2prio and the switch's default DSCP map are both
//     DSCP>>3 (DSCP 0-7 → 0 … 56-63 → 7): every real mlnx_qos output and the
//     Cumulus default table (CumulusNetworks/docs
//     content/cumulus-linux-514/Layer-1-and-Switch-Ports/Quality-of-Service/_index.md);
//   - PCP on RoCE is SL & 7: `MLX5_SET(ads, path, eth_prio, sl & 0x7);` (same qp.c).

// DSCPOfToS is the DSCP a ToS byte (traffic class) puts on the wire.
func DSCPOfToS(tos int) int { return (tos >> 2) & 0x3f }

// ECNOfToS is the ECN codepoint in a ToS byte: 0 Not-ECT, 1 ECT(1), 2 ECT(0), 3 CE.
func ECNOfToS(tos int) int { return tos & 3 }

// ToSOfDSCP is the ToS that carries dscp with Not-ECT.
func ToSOfDSCP(dscp int) int { return dscp << 2 }

// DefaultPriority is the priority both a ConnectX NIC (dscp2prio) and a
// Cumulus switch (trust l3 without explicit mappings) give a DSCP.
func DefaultPriority(dscp int) int { return dscp >> 3 }

// ECNName names an ECN codepoint.
func ECNName(ecn int) string {
	switch ecn & 3 {
	case 1:
		return "ECT(1)"
	case 2:
		return "ECT(0)"
	case 3:
		return "CE"
	}
	return "Not-ECT"
}

// ToSRow is one line of the ToS ↔ DSCP ↔ priority calculator.
type ToSRow struct {
	ToS, DSCP, ECN, DefaultPriority int
}

// ToSTable describes a ToS value.
func ToSTable(tos int) (ToSRow, error) {
	if tos < 0 || tos > 255 {
		return ToSRow{}, fmt.Errorf("ToS %d is outside 0-255", tos)
	}
	d := DSCPOfToS(tos)
	return ToSRow{ToS: tos, DSCP: d, ECN: ECNOfToS(tos), DefaultPriority: DefaultPriority(d)}, nil
}
