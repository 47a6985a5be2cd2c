package checks

import (
	"fmt"
	"strings"
	"testing"
)

// An ibdiagnet folder in the shapes of collectors/ibfiles/testdata/ibdiagnet
// (our own values; NODES header as older files write it, stopping after
// PortGUID; the 54-column PORTS header of log_parser3000
// internal/parser/sections/ports.go; ibdiagnet2.slvl lines as ibutils ibdm
// Fabric.cpp IBFabric::parseSLVLFile reads them), for the ib-pod's three
// HCAs (node GUIDs of their ibstat.txt).
const ibPortsHeader = "NodeGuid,PortGuid,PortNum,MKey,GIDPrfx,MSMLID,LID,CapMsk,M_KeyLeasePeriod,DiagCode,LinkWidthActv,LinkWidthSup,LinkWidthEn,LocalPortNum,LinkSpeedEn,LinkSpeedActv,LMC,MKeyProtBits,LinkDownDefState,PortPhyState,PortState,LinkSpeedSup,VLArbHighCap,VLHighLimit,InitType,VLCap,MSMSL,NMTU,FilterRawOutb,FilterRawInb,PartEnfOutb,PartEnfInb,OpVLs,HoQLife,VLStallCnt,MTUCap,InitTypeReply,VLArbLowCap,PKeyViolations,MKeyViolations,SubnTmo,MulticastPKeyTrapSuppressionEnabled,ClientReregister,GUIDCap,QKeyViolations,MaxCreditHint,OverrunErrs,LocalPhyError,RespTimeValue,LinkRoundTripLatency,OOOSLMask,CapMsk2,FECActv,RetransActv"

// ibPortsRow is a PORTS row of an HCA port: opVLs is PortInfo's
// OperationalVLs code (4: VL0-7), highLimit VLHighLimit.
func ibPortsRow(guid string, lid, opVLs, highLimit int) string {
	vals := map[string]string{"NodeGuid": guid, "PortGuid": guid, "PortNum": "1", "LID": fmt.Sprint(lid),
		"OpVLs": fmt.Sprint(opVLs), "VLCap": "4", "VLHighLimit": fmt.Sprint(highLimit), "VLArbHighCap": "8", "VLArbLowCap": "8",
		"GIDPrfx": "0xfe80000000000000", "CapMsk": "0x2651e848", "OOOSLMask": "N/A", "CapMsk2": "N/A", "FECActv": "N/A", "RetransActv": "N/A"}
	var row []string
	for _, c := range strings.Split(ibPortsHeader, ",") {
		v, ok := vals[c]
		if !ok {
			v = "0"
		}
		row = append(row, v)
	}
	return strings.Join(row, ",")
}

func ibDiagnetDB(gpu02OpVLs int) string {
	return "START_NODES\nNodeDesc,NumPorts,NodeType,ClassVersion,BaseVersion,SystemImageGUID,NodeGUID,PortGUID\n" +
		"\"sm01 mlx5_0\",1,1,1,1,0x0c42a10300bb0001,0x0c42a10300bb0001,0x0c42a10300bb0001\n" +
		"\"gpu01 mlx5_0\",1,1,1,1,0x0c42a10300bb0002,0x0c42a10300bb0002,0x0c42a10300bb0002\n" +
		"\"gpu02 mlx5_0\",1,1,1,1,0x0c42a10300bb0003,0x0c42a10300bb0003,0x0c42a10300bb0003\n" +
		"END_NODES\n\nSTART_PORTS\n" + ibPortsHeader + "\n" +
		ibPortsRow("0x0c42a10300bb0001", 1, 4, 6) + "\n" +
		ibPortsRow("0x0c42a10300bb0002", 2, 4, 6) + "\n" +
		ibPortsRow("0x0c42a10300bb0003", 3, gpu02OpVLs, 6) + "\n" +
		"END_PORTS\n"
}

const (
	ibDiagDB   = "ibdiagnet/ibdiagnet2.db_csv"
	ibDiagSLVL = "ibdiagnet/ibdiagnet2.slvl"
	// gpu02's HCA (iport 0, oport 1) maps SL 1 to VL 15: 0x0f in the
	// first byte holds SL0 → VL 0, SL1 → VL 15.
	ibSLVLDrop = "0x0c42a10300bb0001 0 1 0x01 0x23 0x45 0x67 0x01 0x23 0x45 0x67\n" +
		"0x0c42a10300bb0002 0 1 0x01 0x23 0x45 0x67 0x01 0x23 0x45 0x67\n" +
		"0x0c42a10300bb0003 0 1 0x0f 0x23 0x45 0x67 0x01 0x23 0x45 0x67\n"
	gpu02SL2VL = "devices/gpu02/smpquery-sl2vl-mlx5_0-1.txt"
	gpu02PI    = "devices/gpu02/smpquery-portinfo-mlx5_0-1.txt"
)

// A defect seen through ibdiagnet alone: gpu02 has no smpquery SL2VL or
// PortInfo capture, and ibdiagnet's sweep shows its HCA dropping SL 1.
func TestIBDiagnetSource(t *testing.T) {
	base := []edit{ibPod(), remove(gpu02SL2VL), remove(gpu02PI), write(ibDiagDB, ibDiagnetDB(4))}
	for _, tc := range []struct {
		name  string
		edits []edit
		want  []string // ib-sl2vl findings: device, then a message part
		note  string
	}{
		{name: "SL 1 dropped, seen by ibdiagnet", edits: []edit{write(ibDiagSLVL, ibSLVLDrop)},
			want: []string{"gpu02", "NCCL_IB_SL 1 (devices/gpu02/nccl.conf:4) maps to VL 15 on mlx5_0/1", "ibdiagnet/ibdiagnet2.slvl:3"},
			note: "gpu02: ibdiagnet/ibdiagnet2.db_csv: taken from ibdiagnet, as the host has no smpquery capture of them: mlx5_0/1 (SL2VL, OperVLs, VLHighLimit)"},
		{name: "OperVLs from db_csv", edits: []edit{write(ibDiagDB, ibDiagnetDB(1)), write(ibDiagSLVL, strings.Replace(ibSLVLDrop, "0x0f 0x23", "0x01 0x23", 1))},
			want: []string{"gpu02", "which runs only VL0-0 (OperVLs, ibdiagnet/ibdiagnet2.db_csv:12)", "ibdiagnet/ibdiagnet2.slvl:3"}},
		// gpu01 has its smpquery capture, which says SL 1 → VL 1.
		{name: "smpquery wins where both exist", edits: []edit{write(ibDiagSLVL, strings.NewReplacer("0x0c42a10300bb0002 0 1 0x01", "0x0c42a10300bb0002 0 1 0x0f",
			"0x0c42a10300bb0003 0 1 0x0f", "0x0c42a10300bb0003 0 1 0x01").Replace(ibSLVLDrop))}},
		{name: "no slvl: SL2VL not collected", want: []string{"gpu02", "smpquery-sl2vl-mlx5_0-1.txt not collected"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fabric(t, append(append([]edit{}, base...), tc.edits...)...)
			fs := ibSL2VL.Run(f)
			if len(tc.want) == 0 {
				if len(fs) != 0 {
					t.Fatalf("%+v, want none", fs)
				}
				return
			}
			if len(fs) != 1 || fs[0].Device != tc.want[0] {
				t.Fatalf("%+v, want one on %s", fs, tc.want[0])
			}
			got := fs[0].Message + " @" + fs[0].Source.String()
			for _, w := range tc.want[1:] {
				if !strings.Contains(got, w) {
					t.Errorf("%q lacks %q", got, w)
				}
			}
			if tc.note != "" {
				var notes []string
				for _, n := range f.Notes {
					notes = append(notes, n.Error())
				}
				if !strings.Contains(strings.Join(notes, "\n"), tc.note) {
					t.Errorf("notes %q lack %q", notes, tc.note)
				}
			}
		})
	}
}
