package render_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/qoslint/qoslint/checks/judge"
	goldenpkg "github.com/qoslint/qoslint/internal/golden"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/cmd/qoslint/app"
	"github.com/qoslint/qoslint/internal/fixture"
	"github.com/qoslint/qoslint/render"
)

// golden compares got with testdata/name (see package golden).
func golden(t *testing.T, name string, got []byte) { t.Helper(); goldenpkg.Check(t, name, got) }

func TestGolden(t *testing.T) {
	for _, fabric := range []struct{ name, dir string }{
		{"broken-pod", "../examples/broken-pod"},
		{"clean-pod", "../examples/clean-pod"},
		// SONiC: Cumulus leaves under SONiC spines with six defects.
		{"sonic-mixed", "../examples/sonic-mixed"},
		{"input-errors", "testdata/input-errors"},
		// broken-pod with qoslint-waivers.yaml: two findings waived, one
		// waiver expired, one unused.
		{"waived-pod", "testdata/waived-pod"},
	} {
		dir := fixture.Dir(t, fabric.dir)
		for name, format := range render.Formatters() {
			t.Run(fabric.name+"/"+name, func(t *testing.T) {
				r, err := app.BuildReport(dir, judge.Error)
				if err != nil {
					t.Fatal(err)
				}
				timed(name, r)
				var b bytes.Buffer
				if err := format(&b, r); err != nil {
					t.Fatal(err)
				}
				golden(t, fabric.name+"."+name+".golden", b.Bytes())

				// Twice the same input, twice the same bytes.
				r2, _ := app.BuildReport(dir, judge.Error)
				timed(name, r2)
				var b2 bytes.Buffer
				_ = format(&b2, r2)
				if !bytes.Equal(b.Bytes(), b2.Bytes()) {
					t.Error("output is not deterministic")
				}
			})
		}
	}
}

// goldenRun is the fixed run the junit goldens show: no wall clock and no
// machine name in a golden file.
var goldenRun = &render.RunInfo{Start: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC), Duration: 1234 * time.Millisecond}

// timed gives the junit format's report a fixed Run and Host, so that its
// goldens show the timestamp, hostname and times; the other formats keep
// a report without a run (run.prometheus.golden has one).
func timed(format string, r *render.Report) {
	if format == "junit" {
		r.Run, r.Host = goldenRun, "ci-runner"
	}
}

func TestCommandsQuoteHostileValues(t *testing.T) {
	fix, rb := render.Commands([]checks.Change{
		{Kind: checks.NVUE, Path: []string{"qos", "mapping", "x; rm -rf /", "trust"}, Value: "both", Old: "l2", HasOld: true},
		{Kind: checks.MlnxQos, Target: "eth0$(reboot)", Flag: "--trust", Value: "dscp", Old: "pcp", HasOld: true},
		{Kind: checks.Sysfs, Target: "/sys/class/net/a b/ecn/roce_np/enable/3", Value: "1", Old: "0", HasOld: true},
	})
	want := []string{
		"nv set qos mapping 'x; rm -rf /' trust both",
		"mlnx_qos -i 'eth0$(reboot)' --trust dscp",
		"echo 1 > '/sys/class/net/a b/ecn/roce_np/enable/3'",
		"nv config apply",
	}
	if len(fix) != len(want) {
		t.Fatalf("fix = %q", fix)
	}
	for i := range want {
		if fix[i] != want[i] {
			t.Errorf("fix[%d] = %q, want %q", i, fix[i], want[i])
		}
	}
	if rb[0] != "echo 0 > '/sys/class/net/a b/ecn/roce_np/enable/3'" || rb[len(rb)-1] != "nv config apply" {
		t.Errorf("rollback must undo in reverse order: %q", rb)
	}
}

func TestCommandsRollback(t *testing.T) {
	for _, tc := range []struct {
		c        checks.Change
		fix, rbk string
	}{
		{checks.Change{Kind: checks.NVUE, Path: []string{"qos", "roce", "state"}, Value: "enabled", RollbackUnset: []string{"qos", "roce"}},
			"nv set qos roce state enabled", "nv unset qos roce"},
		{checks.Change{Kind: checks.NVUE, Path: []string{"qos", "roce", "mode"}, Value: "lossless"},
			"nv set qos roce mode lossless", "nv unset qos roce mode"},
		{checks.Change{Kind: checks.NVUEUnset, Path: []string{"qos", "pfc", "default-global", "switch-priority", "4"}, HasOld: true},
			"nv unset qos pfc default-global switch-priority 4", "nv set qos pfc default-global switch-priority 4"},
		{checks.Change{Kind: checks.MlnxQos, Target: "eth0", Flag: "--dscp2prio", Value: "set,26,3"},
			"mlnx_qos -i eth0 --dscp2prio set,26,3", "mlnx_qos -i eth0 --dscp2prio del,26,3"},
		// host-ets: --tsa and --tcbw in one command, as mlnx_qos needs them.
		{checks.Change{Kind: checks.MlnxQos, Target: "eth0", Flag: "--tsa", Value: "ets,vendor,vendor,ets,vendor,vendor,strict,vendor",
			Old: "ets,vendor,vendor,ets,vendor,vendor,strict,vendor", HasOld: true,
			Flag2: "--tcbw", Value2: "50,0,0,50,0,0,0,0", Old2: "100,0,0,0,0,0,0,0"},
			"mlnx_qos -i eth0 --tsa ets,vendor,vendor,ets,vendor,vendor,strict,vendor --tcbw 50,0,0,50,0,0,0,0",
			"mlnx_qos -i eth0 --tsa ets,vendor,vendor,ets,vendor,vendor,strict,vendor --tcbw 100,0,0,0,0,0,0,0"},
		{checks.Change{Kind: checks.NCCLConf, Target: "/etc/nccl.conf", Path: []string{"NCCL_IB_TC"}, Value: "104", Old: "26", HasOld: true},
			"sed -i 's/^NCCL_IB_TC=.*/NCCL_IB_TC=104/' /etc/nccl.conf", "sed -i 's/^NCCL_IB_TC=.*/NCCL_IB_TC=26/' /etc/nccl.conf"},
		{checks.Change{Kind: checks.NCCLConf, Target: "/etc/nccl.conf", Path: []string{"NCCL_IB_TC"}, Value: "104"},
			"touch /etc/nccl.conf && sed -i -e '$a\\' /etc/nccl.conf && echo 'NCCL_IB_TC=104' >> /etc/nccl.conf", "[ ! -e /etc/nccl.conf ] || sed -i '/^NCCL_IB_TC=/d' /etc/nccl.conf"},
		{checks.Change{Kind: checks.LinkMTU, Target: "ens1f0np0", Value: "4200", Old: "1500", HasOld: true},
			"ip link set dev ens1f0np0 mtu 4200", "ip link set dev ens1f0np0 mtu 1500"},
	} {
		fix, rb := render.Commands([]checks.Change{tc.c})
		if fix[0] != tc.fix || rb[0] != tc.rbk {
			t.Errorf("got %q / %q, want %q / %q", fix[0], rb[0], tc.fix, tc.rbk)
		}
	}
}
