package offline

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/qoslint/qoslint/inventory"
)

// The ibdiagnet folder is read once for the fabric, in the shapes of
// collectors/ibfiles/testdata/ibdiagnet (sources cited there), and its
// errors name the file and line; ibstat's Node GUID line is ca_dump's
// (linux-rdma/rdma-core infiniband-diags/ibstat.c: "\tNode GUID:
// 0x%016" PRIx64).
func TestIBDiagnetFolder(t *testing.T) {
	inv, err := inventory.Parse("inventory.yaml", []byte("fabric: t\nfabric_type: infiniband\nhosts:\n  - {name: gpu01, address: 198.51.100.1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	const (
		ibstat = "CA 'mlx5_0'\n\tCA type: MT4129\n\tNode GUID: 0x0c42a10300bb0002\n\tPort 1:\n\t\tState: Active\n\t\tBase lid: 2\n\t\tLink layer: InfiniBand\n"
		db     = "START_NODES\nNodeDesc,NumPorts,NodeType,ClassVersion,BaseVersion,SystemImageGUID,NodeGUID,PortGUID\n" +
			"\"gpu01 mlx5_0\",1,1,1,1,0x0c42a10300bb0002,0x0c42a10300bb0002,0x0c42a10300bb0002\nEND_NODES\n" +
			"START_PORTS\nNodeGuid,PortGuid,PortNum,LID,VLHighLimit,OpVLs\n0x0c42a10300bb0002,0x0c42a10300bb0002,1,2,6,4\nEND_PORTS\n"
		slvl = "0x0c42a10300bb0002 0 1 0x01 0x23 0x45 0x67 0x01 0x23 0x45 0x67\n"
	)
	for _, tc := range []struct {
		name   string
		files  map[string]string
		errors string // "" for none
		ports  int    // ports ibdiagnet has SL2VL for
	}{
		{name: "read", files: map[string]string{"ibdiagnet/ibdiagnet2.db_csv": db, "ibdiagnet/ibdiagnet2.slvl": slvl}, ports: 1},
		{name: "no folder"},
		{name: "no database", files: map[string]string{"ibdiagnet/ibdiagnet2.slvl": slvl}, errors: "ibdiagnet: no ibdiagnet2.db_csv"},
		{name: "bad slvl line", files: map[string]string{"ibdiagnet/ibdiagnet2.db_csv": db, "ibdiagnet/ibdiagnet2.slvl": slvl + "garbage\n"},
			errors: "ibdiagnet/ibdiagnet2.slvl:2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{"devices/gpu01/ibstat.txt": {Data: []byte(ibstat)}}
			for f, d := range tc.files {
				fsys[f] = &fstest.MapFile{Data: []byte(d)}
			}
			c := CollectFS(fsys, inv)
			var errs []string
			for _, e := range c.Errors {
				errs = append(errs, e.Error())
			}
			got := strings.Join(errs, "\n")
			if tc.errors == "" && got != "" || !strings.Contains(got, tc.errors) {
				t.Fatalf("errors %q, want %q", got, tc.errors)
			}
			if pc := c.Hosts[0].IB.Ports[0]; pc.NodeGUID != "0x0c42a10300bb0002" {
				t.Errorf("NodeGUID %q", pc.NodeGUID)
			}
			n := 0
			if c.IBDiagnet != nil {
				n = len(c.IBDiagnet.SL2VL)
			}
			if n != tc.ports {
				t.Errorf("ibdiagnet SL2VL of %d ports, want %d", n, tc.ports)
			}
		})
	}
}
