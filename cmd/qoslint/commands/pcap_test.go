package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/pcap"
	"github.com/qoslint/qoslint/collectors/pcap/pcaptest"
	"github.com/qoslint/qoslint/internal/golden"
)

// The captures are written by gopacket (pcaptest) in the shape tcpdump
// writes on a ConnectX netdev (Ethernet; pcap and pcapng) and a switch
// sends as an ERSPAN type III mirror (draft-foschiano-erspan-03). The
// clean pod's inventory gives gpu01 198.51.100.11 and gpu02 198.51.100.12.
var (
	wireGood = pcaptest.Packet{Src: "198.51.100.11", Dst: "198.51.100.12", DSCP: 26, ECN: 2, DestQP: 0x3B7, SrcPort: 53462}
	wireCNP  = pcaptest.Packet{Src: "198.51.100.12", Dst: "198.51.100.11", DSCP: 48, Opcode: pcap.OpcodeCNP, DestQP: 0x1A2, VLANs: []uint8{6}}
)

func wireWith(p pcaptest.Packet, mod func(*pcaptest.Packet)) pcaptest.Packet { mod(&p); return p }

// pcapFiles writes the captures into a temporary folder and returns their
// paths and a function that makes a report independent of that folder.
func pcapFiles(t *testing.T, files map[string][]byte) (map[string]string, func(string) string) {
	t.Helper()
	dir := t.TempDir()
	paths := map[string]string{}
	for name, data := range files {
		paths[name] = filepath.Join(dir, name)
		if err := os.WriteFile(paths[name], data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return paths, func(s string) string { return strings.ReplaceAll(s, dir+string(filepath.Separator), "") }
}

func TestPcapCommand(t *testing.T) {
	zero := wireWith(wireGood, func(p *pcaptest.Packet) { p.DSCP, p.ECN = 0, 0 })
	p, rel := pcapFiles(t, map[string][]byte{
		"clean.pcap": pcaptest.Pcap(wireGood, wireGood, wireCNP),
		"job.pcapng": pcaptest.Pcapng(wireGood, zero, zero,
			wireWith(wireCNP, func(p *pcaptest.Packet) { p.DSCP, p.VLANs = 0, []uint8{0} })),
		"span.pcapng": pcaptest.Pcapng(wireWith(zero, func(p *pcaptest.Packet) { p.Mirror, p.Src = "erspan3", "203.0.113.9" })),
		"tcp.pcap":    pcaptest.Pcap(wireWith(wireGood, func(p *pcaptest.Packet) { p.TCP = true })),
		"notes.txt":   []byte("not a capture\n"),
	})
	policy := clean + "/inventory.hcl"
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		golden string
		want   string
	}{
		{"clean, default preset", []string{p["clean.pcap"]}, 0, "pcap-clean.txt", "PASS"},
		{"defects with the pod's policy", []string{p["job.pcapng"], p["span.pcapng"], "--policy", policy}, 1, "pcap-job.txt", "gpu01"},
		{"defects as json", []string{p["job.pcapng"], p["span.pcapng"], "--policy", policy, "-f", "json"}, 1, "pcap-job.json", `"check": "wire-dscp"`},
		{"report only", []string{p["job.pcapng"], "--fail-on", "none"}, 0, "", "REPORT ONLY"},
		{"no RoCE: a note", []string{p["tcp.pcap"]}, 0, "", "no RoCEv2 packet"},
		{"not a capture: exit 2, the rest judged", []string{p["notes.txt"], p["job.pcapng"]}, 2, "", "not a pcap or pcapng capture"},
		{"missing file", []string{p["clean.pcap"] + ".gone"}, 2, "", "no such file"},
		{"sarif", []string{p["job.pcapng"], "-f", "sarif"}, 1, "", `"ruleId": "wire-dscp"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := run(append([]string{"pcap"}, tc.args...)...)
			out = rel(out)
			if code != tc.code || !strings.Contains(out, tc.want) {
				t.Fatalf("exit %d (want %d), lacks %q:\n%s\n%s", code, tc.code, tc.want, out, errOut)
			}
			if tc.golden != "" {
				golden.Check(t, tc.golden, []byte(out))
			}
		})
	}
	if code, _, errOut := run("pcap"); code != 2 || !strings.Contains(errOut, "qoslint pcap takes FILE...") || !strings.Contains(errOut, "usage: qoslint pcap FILE...") {
		t.Errorf("no file: exit %d\n%s", code, errOut)
	}
	if code, _, errOut := run("pcap", p["clean.pcap"], "--policy", "nope.yaml"); code != 2 || !strings.Contains(errOut, "nope.yaml") {
		t.Errorf("missing policy: exit %d\n%s", code, errOut)
	}
}
