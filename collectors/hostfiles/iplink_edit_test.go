package hostfiles

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/source"
)

func TestSetLinkMTU(t *testing.T) {
	tests := []struct {
		name, in, ifname string
		mtu              int
		old, new         string // the only text that changes
	}{
		{"compact", ipLinkCompact, "enp1s0f1np1", 9000, `"mtu":1500,"qdisc":"mq","operstate":"DOWN"`, `"mtu":9000,"qdisc":"mq","operstate":"DOWN"`},
		{"pretty", ipLinkPretty, "ens1f0np0", 4200, "\"mtu\": 9000,", "\"mtu\": 4200,"},
		{"shorter number", ipLinkPretty, "lo", 1500, "\"mtu\": 65536,", "\"mtu\": 1500,"},
		{"mtu after ifname is not needed", `[{"mtu" : 1500 ,"operstate":"UP","ifname":"x"}]`, "x", 9216, `"mtu" : 1500 ,`, `"mtu" : 9216 ,`},
		{"last key", "[{\"ifname\":\"x\",\"operstate\":\"UP\",\"mtu\":1500\n}]", "x", 9000, "\"mtu\":1500\n}", "\"mtu\":9000\n}"},
		{"nested mtu untouched", `[{"ifname":"x","linkinfo":{"mtu":1},"mtu":1500,"operstate":"UP"}]`, "x", 9000, `"mtu":1500`, `"mtu":9000`},
		{"within max_mtu", `[{"ifname":"x","mtu":1500,"min_mtu":68,"max_mtu":9978,"operstate":"UP"}]`, "x", 9000, `"mtu":1500`, `"mtu":9000`},
		{"max_mtu 0 is no limit", `[{"ifname":"x","mtu":1500,"max_mtu":0,"operstate":"UP"}]`, "x", 9000, `"mtu":1500`, `"mtu":9000`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SetLinkMTU([]byte(tt.in), tt.ifname, tt.mtu)
			if err != nil {
				t.Fatal(err)
			}
			if want := strings.Replace(tt.in, tt.old, tt.new, 1); string(got) != want {
				t.Fatalf("got\n%s\nwant\n%s", got, want)
			}
			before, _ := ParseIPLink("f", []byte(tt.in))
			after, err := ParseIPLink("f", got)
			if err != nil {
				t.Fatal(err)
			}
			for i, l := range after {
				want := before[i]
				if l.Name == tt.ifname {
					want.MTU = tt.mtu
				}
				if l != want {
					t.Errorf("got %+v, want %+v", l, want)
				}
			}
		})
	}
}

func TestSetLinkMTUExample(t *testing.T) {
	// broken-pod gpu02 runs one RoCE port at 1500.
	data, err := os.ReadFile("../../examples/broken-pod/devices/gpu02/ip-link.json")
	if err != nil {
		t.Fatal(err)
	}
	links, err := ParseIPLink("ip-link.json", data)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range links {
		got, err := SetLinkMTU(data, l.Name, 9000)
		if err != nil {
			t.Fatal(err)
		}
		after, err := ParseIPLink("ip-link.json", got)
		if err != nil {
			t.Fatal(err)
		}
		for i, a := range after {
			want := links[i]
			if want.Name == l.Name {
				want.MTU = 9000
			}
			if a != want {
				t.Errorf("set %s: got %+v, want %+v", l.Name, a, want)
			}
		}
		if len(got) != len(data)+len("9000")-len(strconv.Itoa(l.MTU)) {
			t.Errorf("set %s: %d bytes, want only the number to change", l.Name, len(got))
		}
	}
}

func TestSetLinkMTUErrors(t *testing.T) {
	tests := []struct {
		name, in, ifname string
		mtu, line        int
		msg              string
	}{
		{"absent", ipLinkCompact, "ens9f0np0", 9000, 1, `"ens9f0np0" is not in the ip -j link output (interfaces: enp1s0f1np1, ens1f0np0, lo)`},
		{"invalid json", "[\n{\"ifname\": x}]", "x", 9000, 2, "invalid JSON"},
		{"not ip -j link", `{"ifname":"x"}`, "x", 9000, 1, "JSON array"},
		{"negative", ipLinkCompact, "lo", -1, 1, "0..2147483647"},
		{"below min_mtu", "[\n{\"ifname\":\"x\",\"mtu\":1500,\"min_mtu\":68,\"operstate\":\"UP\"}]", "x", 60, 2, "below the device's min_mtu 68"},
		{"above max_mtu", "[\n\n{\"ifname\":\"x\",\"mtu\":1500,\"max_mtu\":9978,\"operstate\":\"UP\"}]", "x", 10000, 3, "above the device's max_mtu 9978"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := SetLinkMTU([]byte(tt.in), tt.ifname, tt.mtu)
			if err == nil {
				t.Fatalf("no error, got %s", out)
			}
			var se *source.Error
			if !errors.As(err, &se) {
				t.Fatalf("error %T %v is not a *source.Error", err, err)
			}
			if se.File != ipLinkFile || se.Line != tt.line || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("got %v, want %s:%d containing %q", err, ipLinkFile, tt.line, tt.msg)
			}
		})
	}
}
