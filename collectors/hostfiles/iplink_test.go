package hostfiles

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/source"
)

// ipLinkCompact is `ip -j link show` as iproute2 prints it: one line.
const ipLinkCompact = `[{"ifindex":1,"ifname":"lo","flags":["LOOPBACK","UP","LOWER_UP"],"mtu":65536,"qdisc":"noqueue","operstate":"UNKNOWN","linkmode":"DEFAULT","group":"default","txqlen":1000,"link_type":"loopback","address":"00:00:00:00:00:00","broadcast":"00:00:00:00:00:00"},{"ifindex":4,"ifname":"ens1f0np0","flags":["BROADCAST","MULTICAST","UP","LOWER_UP"],"mtu":9000,"qdisc":"mq","operstate":"UP","linkmode":"DEFAULT","group":"default","txqlen":1000,"link_type":"ether","address":"b8:ce:f6:01:02:03","broadcast":"ff:ff:ff:ff:ff:ff","vfinfo_list":[{"vf":0,"link_type":"ether","address":"00:00:00:00:00:00","spoofchk":true,"trust":false}]},{"ifindex":3,"ifname":"enp1s0f1np1","flags":["NO-CARRIER","BROADCAST","MULTICAST","UP"],"mtu":1500,"qdisc":"mq","operstate":"DOWN","linkmode":"DEFAULT","group":"default","txqlen":1000,"link_type":"ether","address":"b8:ce:f6:01:02:04","broadcast":"ff:ff:ff:ff:ff:ff"}]
`

// ipLinkPretty is the `ip -j -p link show` form.
const ipLinkPretty = `[ {
        "ifindex": 1,
        "ifname": "lo",
        "flags": [ "LOOPBACK","UP","LOWER_UP" ],
        "mtu": 65536,
        "qdisc": "noqueue",
        "operstate": "UNKNOWN",
        "linkmode": "DEFAULT",
        "group": "default",
        "txqlen": 1000,
        "link_type": "loopback",
        "address": "00:00:00:00:00:00",
        "broadcast": "00:00:00:00:00:00"
    },{
        "ifindex": 4,
        "ifname": "ens1f0np0",
        "flags": [ "BROADCAST","MULTICAST","UP","LOWER_UP" ],
        "mtu": 9000,
        "qdisc": "mq",
        "operstate": "UP",
        "altnames": [ "enp59s0f0np0" ]
    } ]
`

func TestParseIPLink(t *testing.T) {
	tests := []struct {
		name, in string
		want     []Link
	}{
		{"compact", ipLinkCompact, []Link{
			{Name: "enp1s0f1np1", MTU: 1500, OperState: "DOWN", LinkType: "ether", MAC: "b8:ce:f6:01:02:04", Line: 1},
			{Name: "ens1f0np0", MTU: 9000, OperState: "UP", LinkType: "ether", MAC: "b8:ce:f6:01:02:03", Line: 1},
			{Name: "lo", MTU: 65536, OperState: "UNKNOWN", LinkType: "loopback", MAC: "00:00:00:00:00:00", Line: 1},
		}},
		{"pretty", ipLinkPretty, []Link{
			{Name: "ens1f0np0", MTU: 9000, OperState: "UP", Line: 14},
			{Name: "lo", MTU: 65536, OperState: "UNKNOWN", LinkType: "loopback", MAC: "00:00:00:00:00:00", Line: 1},
		}},
		// An IPoIB port: iproute2 names ARPHRD_INFINIBAND "infiniband"
		// (lib/ll_types.c) and prints the 20-byte IPoIB hardware address.
		{"ipoib", `[{"ifindex":5,"ifname":"ibp59s0","flags":["BROADCAST","MULTICAST","UP","LOWER_UP"],"mtu":4092,"qdisc":"mq","operstate":"UP","link_type":"infiniband","address":"00:00:10:29:fe:80:00:00:00:00:00:00:b8:ce:f6:03:00:a1:b2:c3","broadcast":"00:ff:ff:ff:ff:12:40:1b:ff:ff:00:00:00:00:00:00:ff:ff:ff:ff"}]`, []Link{
			{Name: "ibp59s0", MTU: 4092, OperState: "UP", LinkType: "infiniband", MAC: "00:00:10:29:fe:80:00:00:00:00:00:00:b8:ce:f6:03:00:a1:b2:c3", Line: 1},
		}},
		{"empty array", "[]\n", []Link{}},
		{"objects on their own lines", "[\n\n  {\"ifname\":\"b\",\"mtu\":1,\"operstate\":\"UP\"}\n,\n{\"ifname\":\"a\",\"mtu\":2,\"operstate\":\"UP\",\"x\":{\"y\":[1,{}]}}]", []Link{
			{Name: "a", MTU: 2, OperState: "UP", Line: 5},
			{Name: "b", MTU: 1, OperState: "UP", Line: 3},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseIPLink("ip_link.json", []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestParseIPLinkErrors(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
		msg      string
	}{
		{"empty", "  \n", 1, "empty"},
		{"syntax", "[{\"ifname\":\"lo\",\n\"mtu\":1,\n\"operstate\": UP}]", 3, "invalid JSON"},
		{"truncated", "[{\"ifname\":\"lo\",\n\"mtu\":1,\n", 2, "invalid JSON"},
		{"trailing garbage", "[]\n]", 2, "invalid JSON"},
		{"not an array", "{\"ifname\":\"lo\"}", 1, "JSON array"},
		{"null", "null", 1, "JSON array"},
		{"element not object", "[\n1]", 2, "interface object"},
		{"mtu string", "[{\"ifname\":\"lo\",\n  \"mtu\":\"1500\",\"operstate\":\"UP\"}]", 2, "mtu"},
		{"mtu float", "[{\"ifname\":\"lo\",\"mtu\":1500.5,\"operstate\":\"UP\"}]", 1, "mtu"},
		{"mtu negative", "[{\"ifname\":\"lo\",\"mtu\":-1,\"operstate\":\"UP\"}]", 1, "mtu"},
		{"ifname number", "[\n{\"ifname\":\n7,\"mtu\":1,\"operstate\":\"UP\"}]", 3, "ifname"},
		{"no ifname", "[{\"mtu\":1},\n{\"mtu\":1,\"operstate\":\"UP\"}]", 1, "without ifname"},
		{"no operstate", "[\n{\"ifname\":\"a\",\"mtu\":1}]", 2, "without operstate"},
		{"no mtu", "[\n\n{\"ifname\":\"a\",\"operstate\":\"UP\"}]", 3, "without mtu"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseIPLink("ip_link.json", []byte(tt.in))
			var se *source.Error
			if !errors.As(err, &se) {
				t.Fatalf("got %+v, %v; want a *source.Error", got, err)
			}
			if se.File != "ip_link.json" || se.Line != tt.line || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("got %v, want line %d containing %q", se, tt.line, tt.msg)
			}
		})
	}
}

// A host with thousands of VF representors: parsing must stay linear.
func TestParseIPLinkLarge(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	const n = 5000
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"ifindex":%d,"ifname":"eth%05d","flags":["BROADCAST","MULTICAST"],"mtu":1500,"operstate":"DOWN","vfinfo_list":[{"vf":0}]}`, i, i)
	}
	b.WriteString("]\n")
	links, err := ParseIPLink("ip_link.json", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(links) != n || links[n-1].Name != "eth04999" || links[n-1].Line != n {
		t.Errorf("got %d links, last %+v", len(links), links[len(links)-1])
	}
}
