package lldp

import (
	"errors"
	"testing"

	"github.com/qoslint/qoslint/internal/source"
)

// FuzzParse: any input gives neighbours or a *source.Error at a line of
// the input, never a panic. The seeds are both lldpcli JSON forms (the
// shapes of testdata/, kept to one or two neighbours on few lines so the
// fuzzer's minimiser stays quick).
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"lldp":[{"interface":[{"name":"swp1","via":"LLDP","rid":"3",` +
		`"chassis":[{"id":[{"type":"mac","value":"00:00:5E:00:53:10"}],"name":[{"value":"gpu01"}],"capability":[{"type":"Bridge","enabled":false}]}],` +
		`"port":[{"id":[{"type":"mac","value":"00:00:5e:00:53:12"}],"descr":[{"value":"ens1f0np0"}],"ttl":[{"value":"120"}]}]},` +
		`{"name":"swp2","chassis":[{"id":[{"type":"mac","value":"00:00:5e:00:53:22"}]}],"port":[{"id":[{"type":"mac","value":"00:00:5e:00:53:22"}]}]}]}]}`))
	f.Add([]byte("{\"lldp\":{\"interface\":[{\"swp31\":{\"via\":\"LLDP\",\n\"chassis\":{\"spine01\":{\"id\":{\"type\":\"mac\",\"value\":\"00:00:5e:00:53:f1\"}}},\n" +
		"\"port\":{\"id\":{\"type\":\"ifname\",\"value\":\"swp1\"},\"descr\":\"leaf01-uplink\",\"ttl\":\"120\"}}},\n" +
		"{\"swp2\":{\"chassis\":{\"id\":{\"type\":\"mac\",\"value\":\"00:00:5e:00:53:22\"}},\"port\":{\"id\":{\"type\":\"mac\",\"value\":\"00:00:5e:00:53:22\"}}}}]}}"))
	f.Add([]byte(`{"lldp": [{}]}`))
	f.Add([]byte(`{"lldp": {"interface": {"eth0": {"chassis": {"h": {"id": {"type": "mac", "value": "x"}}}, "port": {"id": {"type": "ifname", "value": "eth1"}}}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := Parse("lldp.json", data)
		if err != nil {
			var se *source.Error
			if !errors.As(err, &se) {
				t.Fatalf("not a *source.Error: %v", err)
			}
			if se.Pos.Line < 1 || se.Pos.Line > 1+countLines(data) {
				t.Fatalf("line %d outside the input", se.Pos.Line)
			}
			return
		}
		for _, nb := range n.Neighbors {
			if nb.Interface == "" || nb.PortID == "" || nb.ChassisID == "" || nb.Line < 1 {
				t.Fatalf("incomplete neighbour %+v", nb)
			}
		}
	})
}

func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}
