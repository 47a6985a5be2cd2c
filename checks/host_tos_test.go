package checks

import (
	"testing"
)

var _ = register(hostToS, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "NCCL_IB_TC is the DSCP", edits: []edit{replace(gpu01N, "NCCL_IB_TC=106", "NCCL_IB_TC=26")},
			want: []string{"error gpu01 ens1f0np0,ens1f1np1"}, msg: "NCCL_IB_TC=26 is the DSCP, not the ToS"},
		{name: "NCCL_IB_TC unset", edits: []edit{replace(gpu01N, "NCCL_IB_TC=106", "")},
			want: []string{"error gpu01 ens1f0np0,ens1f1np1"}, msg: "RoCE leaves with ToS 0"},
		{name: "NCCL_IB_TC other DSCP", edits: []edit{replace(gpu01N, "NCCL_IB_TC=106", "NCCL_IB_TC=96")},
			want: []string{"error gpu01 ens1f0np0,ens1f1np1"}, msg: "puts DSCP 24 on the wire"},
		{name: "forced traffic_class overrides a good NCCL_IB_TC", edits: []edit{write(gpu03TC, "Global tclass=26\n")},
			want: []string{"error gpu03 ens1f0np0"}, msg: "the forced traffic_class is the DSCP"},
		{name: "forced traffic_class fixes a bad NCCL_IB_TC", edits: []edit{replace(dev("gpu03", "nccl.conf"), "NCCL_IB_TC=106", "NCCL_IB_TC=0")}},
		{name: "ToS with ECT(0) is fine", edits: []edit{replace(gpu01N, "NCCL_IB_TC=106", "NCCL_IB_TC=104")}},
		{name: "export prefix sets nothing", edits: []edit{replace(gpu01N, "NCCL_IB_TC=106", "export NCCL_IB_TC=106")},
			want: []string{"error gpu01 ens1f0np0,ens1f1np1"}, msg: `sets a variable named "export NCCL_IB_TC"`},
		{name: "octal", edits: []edit{replace(gpu01N, "NCCL_IB_TC=106", "NCCL_IB_TC=0106")},
			want: []string{"error gpu01 ens1f0np0,ens1f1np1"}, msg: "octal"},
		{name: "nothing collected", edits: []edit{remove(gpu01N)},
			want: []string{"info gpu01"}, msg: "nccl.conf"},
		{name: "the environment was not collected", edits: []edit{replace(gpu01N, "NCCL_IB_TC=106", "NCCL_IB_TC=26")},
			want: []string{"error gpu01 ens1f0np0,ens1f1np1"}, msg: "set in /etc/nccl.conf; the job environment and ~/.nccl.conf were not collected: a job may still override it there"},
		{name: "~/.nccl.conf beats a good /etc/nccl.conf", edits: []edit{write(dev("gpu01", "home-nccl.conf"), "NCCL_IB_TC=26\n")},
			want: []string{"error gpu01 ens1f0np0,ens1f1np1"}, msg: "set in ~/.nccl.conf, which beats /etc/nccl.conf; set NCCL_IB_TC=104 there"},
		{name: "the environment fixes a bad ~/.nccl.conf", edits: []edit{write(dev("gpu01", "home-nccl.conf"), "NCCL_IB_TC=26\n"),
			write(dev("gpu01", "nccl-env.txt"), "HOME=/home/alice\nNCCL_IB_TC=106\n")}},
		{name: "the environment sets a bad value", edits: []edit{write(dev("gpu01", "nccl-env.txt"), "HOME=/home/alice\x00NCCL_IB_TC=0\x00")},
			want: []string{"error gpu01 ens1f0np0,ens1f1np1"}, msg: "set in the job environment, which beats every nccl.conf"},
		{name: "every layer collected, none sets it", edits: []edit{replace(gpu01N, "NCCL_IB_TC=106", ""),
			write(dev("gpu01", "home-nccl.conf"), "NCCL_DEBUG=WARN\n"), write(dev("gpu01", "nccl-env.txt"), "HOME=/home/alice\n")},
			want: []string{"error gpu01 ens1f0np0,ens1f1np1"}, msg: "RoCE leaves with ToS 0 (NCCL_IB_TC unset, NCCL's default 0): DSCP 0, priority 0, the lossy queue on every hop; set the ToS to 104 (DSCP 26 × 4); no collected layer (environment, ~/.nccl.conf, /etc/nccl.conf) sets it"},
	}
})

// host-tos under a PCP policy: NCCL_IB_SL (NVIDIA/nccl src/transport/net_ib.cc,
// `NCCL_PARAM(IbSl, "IB_SL", 0)`) in the shipped /etc/nccl.conf shape.
var _ = register(hostToS, func(testing.TB) []checkCase {
	slAll := func(sl string) []edit {
		var out []edit
		for _, h := range []string{"gpu01", "gpu02", "gpu03", "gpu04"} {
			out = append(out, appendTo(dev(h, "nccl.conf"), "NCCL_IB_SL="+sl+"\n"))
		}
		return out
	}
	return []checkCase{
		{name: "DSCP policy: NCCL_IB_SL is not judged", edits: slAll("0")},
		{name: "PCP policy, NCCL_IB_SL=3 everywhere", edits: append(slAll("3"), pcpPolicy)},
		{name: "PCP policy, NCCL_IB_SL=11 is PCP 3", edits: append(slAll("11"), pcpPolicy)},
		{name: "PCP policy, NCCL_IB_SL unset: SL 0", edits: []edit{pcpPolicy},
			want: []string{"error gpu01 ens1f0np0,ens1f1np1", "error gpu02 ens1f0np0,ens1f1np1", "error gpu03 ens1f0np0,ens1f1np1", "error gpu04 ens1f0np0,ens1f1np1"},
			msg:  "NCCL_IB_SL=0 tags RoCE with PCP 0 (SL & 7), not the RoCE priority 3"},
		{name: "PCP policy, the environment sets a wrong SL over a good /etc", edits: append(slAll("3"), pcpPolicy,
			write(dev("gpu01", "nccl-env.txt"), "HOME=/home/alice\nNCCL_IB_SL=5\n")),
			want: []string{"error gpu01 ens1f0np0,ens1f1np1"}, msg: "set in the job environment, which beats every nccl.conf; set NCCL_IB_SL=3 there"},
	}
})
