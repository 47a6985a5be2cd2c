package checks

import (
	"os"
	"testing"
)

var _ = register(evidenceRoCEPriority, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "not collected is silent"},
		{name: "clean", edits: []edit{write(gpu01E0, cleanStats)}},
		{name: "a storage share on 0 is not RoCE", edits: []edit{write(gpu01E0, storageStats)}},
		{name: "bytes on 0", edits: []edit{write(gpu01E0, prio0Stats)},
			want: []string{"error gpu01 ens1f0np0"}, msg: "RoCE-sized traffic left on priority 0, above the 1.0 GiB and 10% threshold, while the RoCE priority 3 sent 1.0 MiB; " +
				"the RDMA counters confirm it is RoCE: the NIC sent 655.0 GiB of RDMA, so at least 655.0 GiB of it left outside priority 3; no configuration finding"},
		{name: "bytes on 0 with NCCL_IB_TC unset", edits: []edit{write(gpu01E0, prio0Stats), replace(gpu01N, "NCCL_IB_TC=106", "")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "corroborates host-tos on this NIC"},
		{name: "bytes on 0 with trust pcp", edits: []edit{write(gpu01E0, prio0Stats), replace(gpu01Q0, "Priority trust state: dscp", "Priority trust state: pcp")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "corroborates host-trust on this NIC"},
		{name: "small traffic on 0 is below the threshold", edits: []edit{write(gpu01E0, mlx5EthtoolS(map[int]traffic{0: {txBytes: 900 << 20}}, nil))}},
	}
})

func TestEvidenceRoCEPriority(t *testing.T) {
	fs := evidenceRoCEPriority.Run(fabric(t, write(gpu01E0, prio0Stats)))
	if len(fs) != 1 || fs[0].Actual != "priority 0 sent 655.0 GiB (100%)" {
		t.Errorf("%+v", fs)
	}
}

var _ = register(evidenceRoCEPriority, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "bytes on 0 long ago, none in the interval", edits: []edit{write(gpu01E0, prio0Stats), write(gpu01E0Before, prio0Stats), write(gpu01Interval, "1m")}},
		{name: "bytes on 0 during the interval", edits: []edit{write(gpu01E0, prio0Stats), write(gpu01E0Before, cleanStats), write(gpu01Interval, "1m")},
			// prio 0 grew from 2 MiB to 655 GiB, prio 3 counters went down: reset, taken as they are.
			want: []string{"error gpu01 ens1f0np0"}, msg: "in the last 1m0s: RoCE-sized traffic left on priority 0"},
	}
})

// The RDMA counters decide whether traffic on a wrong priority is RoCE.
var _ = register(evidenceRoCEPriority, func(testing.TB) []checkCase {
	// Only TCP on this NIC: 655 GiB on priority 0, RDMA counters 0.
	tcpOnly := withRDMA(prio0Stats, 0, 0)
	// RoCE on 3 (790 GiB of RDMA, all of it fits priority 3), a large
	// TCP backup on 0 that outgrew it.
	tcpBeside := withRDMA(mlx5EthtoolS(map[int]traffic{
		0: {rxBytes: 3 * gib, txBytes: 1200 * gib},
		3: {rxBytes: 812 * gib, txBytes: 790 * gib},
	}, []int{3}), 812*gib, 790*gib)
	return []checkCase{
		{name: "a NIC that carried only TCP is not accused", edits: []edit{write(gpu01E0, tcpOnly)}},
		{name: "TCP outgrowing RoCE on its own priority is not RoCE", edits: []edit{write(gpu01E0, tcpBeside)}},
		{name: "no RDMA counters: a weaker verdict", edits: []edit{write(gpu01E0, withoutRDMA(prio0Stats))},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "the capture has no RDMA counters (tx_vport_rdma_unicast_bytes), so this traffic may be TCP rather than RoCE: a weaker verdict"},
		{name: "RDMA partly elsewhere", edits: []edit{write(gpu01E0, withRDMA(prio0Stats, 0, 300*gib))},
			want: []string{"error gpu01 ens1f0np0"}, msg: "the NIC sent 300.0 GiB of RDMA, so at least 300.0 GiB of it left outside priority 3"},
		{name: "RDMA elsewhere below the threshold", edits: []edit{write(gpu01E0, withRDMA(prio0Stats, 0, 900<<20))}},
		// Two samples: priority 0 grew by 655 GiB, RDMA did not grow at all.
		{name: "bytes on 0 in the interval, no RDMA growth", edits: []edit{write(gpu01E0, withRDMA(prio0Stats, 5*gib, 5*gib)),
			write(gpu01E0Before, withRDMA(cleanStats, 5*gib, 5*gib)), write(gpu01Interval, "1m")}},
		{name: "bytes and RDMA on 0 in the interval", edits: []edit{write(gpu01E0, withRDMA(prio0Stats, 5*gib, 600*gib)),
			write(gpu01E0Before, withRDMA(cleanStats, 5*gib, 5*gib)), write(gpu01Interval, "1m")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "in the last 1m0s: RoCE-sized traffic left on priority 0"},
	}
})

// A real-format capture of a port that carried only TCP (hostfiles
// testdata, every vPort RDMA counter 0, 700 GiB on priority 0): not
// accused of RoCE on the wrong priority; without its RDMA lines the same
// bytes give only a warning that says they may be TCP.
var _ = register(evidenceRoCEPriority, func(t testing.TB) []checkCase {
	data, err := os.ReadFile("../collectors/hostfiles/testdata/ethtool/constructed_tcp_only_vport_rdma.txt")
	if err != nil {
		t.Fatal(err)
	}
	return []checkCase{
		{name: "TCP only", edits: []edit{write(gpu01E0, string(data))}},
		{name: "TCP only, RDMA counters cut", edits: []edit{write(gpu01E0, withoutRDMA(string(data)))},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "may be TCP rather than RoCE"},
	}
})
