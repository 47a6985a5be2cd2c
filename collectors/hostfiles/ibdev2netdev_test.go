package hostfiles

import (
	"errors"
	"reflect"
	"testing"

	"github.com/qoslint/qoslint/internal/source"
)

func TestParseIBDev2Netdev(t *testing.T) {
	tests := []struct {
		name, in string
		want     []IBDev
	}{
		{
			// Real examples (Mellanox/mlnx-tools 290a843^:sbin/ibdev2netdev), given out of netdev order.
			name: "new form",
			in:   "rocep1s0f1 port 1 ==> enp1s0f1np1 (Up)\nmlx5_2 port 1 ==> ens9f0np0 (Up)\n\nmlx5_3 port 1 ==> ens9f1np1 (Down)\n",
			want: []IBDev{
				{IBDev: "rocep1s0f1", Port: 1, Netdev: "enp1s0f1np1", State: "Up", Line: 1},
				{IBDev: "mlx5_2", Port: 1, Netdev: "ens9f0np0", State: "Up", Line: 2},
				{IBDev: "mlx5_3", Port: 1, Netdev: "ens9f1np1", State: "Down", Line: 4},
			},
		},
		{
			name: "old form",
			in:   "mlx4_0 port 2 <===> eth3\nmlx4_0 port 1 <===> eth2\n",
			want: []IBDev{
				{IBDev: "mlx4_0", Port: 1, Netdev: "eth2", Line: 2},
				{IBDev: "mlx4_0", Port: 2, Netdev: "eth3", Line: 1},
			},
		},
		{
			// Built from the -v echo; ibstate/partid/devdesc are printf-padded,
			// devdesc may hold parentheses, $x is empty when no PCI device
			// matched, and $link_state is empty without a dev_id file.
			name: "verbose",
			in: "0000:3b:00.0 mlx5_0 (MT4119 - MCX556A-ECAT) CX556A - ConnectX-5 QSFP28 fw 16.26.1040 port 1 (ACTIVE) ==> ens1f0 (Up)\n" +
				"0000:af:00.1 mlx5_3 (MT4123 - MCX653106A-HDAT) ConnectX-6 VPI adapter card, HDR IB (200Gb/s) and 200GbE, dual-port QSFP56 fw 20.31.1014 port 1 (DOWN  ) ==> ens5f1 (Down)\n" +
				" mlx5_1 (MT4119 - NA         )  fw 16.26.1040 port 1 (ACTIVE) ==> ens1f1 (NA)\n" +
				"mlx5_4 port 1 ==> ib0 ()\n",
			want: []IBDev{
				{IBDev: "mlx5_0", Port: 1, Netdev: "ens1f0", State: "Up", Line: 1},
				{IBDev: "mlx5_1", Port: 1, Netdev: "ens1f1", State: "NA", Line: 3},
				{IBDev: "mlx5_3", Port: 1, Netdev: "ens5f1", State: "Down", Line: 2},
				{IBDev: "mlx5_4", Port: 1, Netdev: "ib0", State: "", Line: 4},
			},
		},
		{name: "empty", in: "", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseIBDev2Netdev("ibdev2netdev.txt", []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestParseIBDev2NetdevErrors(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
	}{
		{"garbage", "mlx5_0 port 1 ==> ens1f0 (Up)\nibdev2netdev: command not found\n", 2},
		{"port not a number", "mlx5_0 port x ==> ens1f0 (Up)\n", 1},
		{"port 0", "mlx5_0 port 0 ==> ens1f0 (Up)\n", 1},
		{"no netdev", "\nmlx5_0 port 1 ==> (Up)\n", 2},
		{"no state parens", "mlx5_0 port 1 ==> ens1f0 Up\n", 1},
		{"netdev with slash", "mlx5_0 port 1 ==> ../x (Up)\n", 1},
		{"old form with state", "mlx5_0 port 1 <===> eth0 (Up)\n", 1},
		{"verbose without ibdev", "0000:3b:00.0 (MT4119 - X) fw 1 port 1 (ACTIVE) ==> ens1f0 (Up)\n", 1},
		{"ibdev dotdot", ".. port 1 ==> ens1f0 (Up)\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseIBDev2Netdev("ibdev2netdev.txt", []byte(tt.in))
			var se *source.Error
			if !errors.As(err, &se) {
				t.Fatalf("got %+v, %v; want a *source.Error", got, err)
			}
			if se.File != "ibdev2netdev.txt" || se.Line != tt.line {
				t.Errorf("got %v, want line %d", se, tt.line)
			}
		})
	}
}
