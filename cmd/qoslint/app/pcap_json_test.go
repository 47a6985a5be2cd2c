package app

import (
	"bytes"
	"os"
	"testing"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/collectors/pcap"
	"github.com/qoslint/qoslint/collectors/pcap/pcaptest"
)

// TestPcapJSONWire: `qoslint pcap -f json` carries each capture's per-flow
// summary (`qoslint help formats` "JSON", render/schema/report.schema.json "wire"):
// a sender at DSCP 26 with a CE-marked packet, the tagged CNP that went
// back at the wrong priority, an untagged CNP, and a second sender at
// DSCP 0, in a pcapng file as tcpdump -i <netdev> writes.
func TestPcapJSONWire(t *testing.T) {
	var out, errOut bytes.Buffer
	// In a subtest, so that the golden file is read from this package's
	// testdata once the report names the capture as given ("job.pcapng").
	t.Run("read", func(t *testing.T) { pcapJSON(t, &out, &errOut) })
	golden(t, "pcap-wire.json.golden", out.Bytes())
}

func pcapJSON(t *testing.T, out, errOut *bytes.Buffer) {
	t.Chdir(t.TempDir())
	data := pcaptest.Packet{Src: "198.51.100.11", Dst: "198.51.100.12", DSCP: 26, ECN: 2, DestQP: 0x3B7, SrcPort: 53462}
	ce := data
	ce.ECN = 3
	cnp := pcaptest.Packet{Src: data.Dst, Dst: data.Src, DSCP: 48, Opcode: pcap.OpcodeCNP, DestQP: 0x1A2, SrcPort: 53462}
	tagged := cnp
	tagged.VLANs = []uint8{0}
	lossy := pcaptest.Packet{Src: "198.51.100.14", Dst: "198.51.100.13", ECN: 2, DestQP: 0x10, SrcPort: 49152}
	if err := os.WriteFile("job.pcapng", pcaptest.Pcapng(data, ce, tagged, cnp, lossy, data), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := Pcap(out, errOut, []string{"job.pcapng"}, PcapOptions{Format: "json", FailOn: judge.Error}); code != ExitFindings {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
}
