package model

import "testing"

// The rows derived from knneth/mlnx-ofa_kernel drivers/infiniband/hw/mlx5/qp.c (DSCP =
// tclass >> 2, PCP = SL & 7) and the dscp2prio table every real mlnx_qos prints.
func TestToSTable(t *testing.T) {
	for _, tc := range []struct{ tos, dscp, ecn, prio int }{
		{0, 0, 0, 0}, {96, 24, 0, 3}, {104, 26, 0, 3}, {106, 26, 2, 3},
		{136, 34, 0, 4}, {160, 40, 0, 5}, {184, 46, 0, 5}, {192, 48, 0, 6},
	} {
		row, err := ToSTable(tc.tos)
		if err != nil {
			t.Fatal(err)
		}
		if row.DSCP != tc.dscp || row.ECN != tc.ecn || row.DefaultPriority != tc.prio {
			t.Errorf("ToS %d = %+v, want DSCP %d ECN %d prio %d", tc.tos, row, tc.dscp, tc.ecn, tc.prio)
		}
		if tc.ecn == 0 && ToSOfDSCP(tc.dscp) != tc.tos {
			t.Errorf("ToSOfDSCP(%d) = %d, want %d", tc.dscp, ToSOfDSCP(tc.dscp), tc.tos)
		}
	}
	if _, err := ToSTable(256); err == nil {
		t.Error("ToS 256 accepted")
	}
	if ECNName(2) != "ECT(0)" || ECNName(3) != "CE" {
		t.Error("ECN names")
	}
}
