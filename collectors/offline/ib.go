package offline

import (
	"path"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/collectors/ibfiles"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

// ibFiles reads a host's InfiniBand files: ibstat, then the smpquery
// tables of each port whose link layer is InfiniBand, and opensm.conf
// when the host runs the subnet manager.
func (r *reader) ibFiles(hc *collectors.HostCapture) *collectors.IBCapture {
	ib := &collectors.IBCapture{}
	ib.OpenSM = readOK(r, r.devicePath(hc.Name, layout.OpenSMConfFile), ibfiles.ParseOpenSMConf)
	ib.QoSPolicy = readOK(r, r.devicePath(hc.Name, layout.QoSPolicyFile), ibfiles.ParseQoSPolicy)
	r.ibSwitchFiles(hc, ib)
	st, state := readParse(r, r.devicePath(hc.Name, layout.IBStatFile), ibfiles.ParseIBStat)
	if state == fileAbsent {
		hc.Missing = append(hc.Missing, layout.IBStatFile)
	}
	if state != fileOK {
		return ib
	}
	ib.IBStat = st
	for _, p := range st.Ports {
		if p.LinkLayer != "InfiniBand" {
			continue
		}
		pc := &collectors.IBPortCapture{CA: p.CA, NodeGUID: p.NodeGUID, Port: p.Port, LID: p.BaseLID, Line: p.Line}
		file := func(op string) string { return r.devicePath(hc.Name, layout.SMPQueryFile(op, p.CA, p.Port)) }
		var s1, s2, s3 fileState
		pc.SL2VL, s1 = readParse(r, file("sl2vl"), ibfiles.ParseSL2VL)
		pc.VLArb, s2 = readParse(r, file("vlarb"), ibfiles.ParseVLArb)
		pc.PortInfo, s3 = readParse(r, file("portinfo"), ibfiles.ParsePortInfo)
		for i, s := range []fileState{s1, s2, s3} {
			if s == fileAbsent {
				hc.Missing = append(hc.Missing, layout.SMPQueryFile([]string{"sl2vl", "vlarb", "portinfo"}[i], p.CA, p.Port))
			}
			if s != fileOK {
				pc.SL2VL, pc.VLArb, pc.PortInfo = nilIf(s1, pc.SL2VL), nilIf(s2, pc.VLArb), nilIf(s3, pc.PortInfo)
			}
		}
		ib.Ports = append(ib.Ports, pc)
	}
	return ib
}

func nilIf[T any](s fileState, v *T) *T {
	if s != fileOK {
		return nil
	}
	return v
}

// ncclFiles reads only the applications' layers (NCCL, UCX), for a host of an InfiniBand-only
// fabric: NCCL_IB_SL is read from them like NCCL_IB_TC.
func (r *reader) ncclFiles(hc *collectors.HostCapture) {
	conf, st := readParse(r, r.devicePath(hc.Name, layout.NCCLConfFile), hostfiles.ParseNCCLConf)
	if st == fileOK {
		hc.NCCL = conf
	} else if st == fileAbsent {
		hc.Missing = append(hc.Missing, layout.NCCLConfFile)
	}
	hc.NCCLHome = readOK(r, r.devicePath(hc.Name, layout.HomeNCCLConfFile), hostfiles.ParseNCCLConf)
	hc.NCCLEnv = readOK(r, r.devicePath(hc.Name, layout.NCCLEnvFile), hostfiles.ParseNCCLEnv)
	// UCX_IB_SL is an application's SL as NCCL_IB_SL is.
	hc.UCX = readOK(r, r.devicePath(hc.Name, layout.UCXConfFile), hostfiles.ParseUCXConf)
}

// ibdiagnet reads the optional fabric-wide ibdiagnet/ folder: NODES and
// PORTS of ibdiagnet2.db_csv and, when present, the SL2VL tables of
// ibdiagnet2.slvl. The model takes a port's tables from it only where the
// host has no smpquery capture of the port.
func (r *reader) ibdiagnet() *ibfiles.DiagnetQoS {
	if ok, _ := r.folder(layout.IBDiagnetDir); !ok {
		return nil
	}
	db, st := readParse(r, layout.IBDiagnetDBFile, ibfiles.ParseDBCSV)
	if st == fileAbsent {
		r.fail(source.Pos{File: layout.IBDiagnetDir}, "no %s: the ibdiagnet folder needs ibdiagnet's database to be read", path.Base(layout.IBDiagnetDBFile))
	}
	if st != fileOK {
		return nil
	}
	slvl := readOK(r, layout.IBDiagnetSLVLFile, ibfiles.ParseSLVL)
	q, err := ibfiles.FromIBDiagnet(db, slvl)
	if err != nil {
		r.failErr(layout.IBDiagnetDBFile, err)
		return nil
	}
	for _, n := range q.Notes {
		r.noteErr(n)
	}
	return q
}

// ibSwitchFiles reads ibswitches.txt, optional (only the host that read
// the switches has it), and per switch the ports whose PortInfo is there.
// A port that is Active must also have its SL2VL and VL arbitration
// tables; one that is not carries no traffic and needs neither.
func (r *reader) ibSwitchFiles(hc *collectors.HostCapture, ib *collectors.IBCapture) {
	sws := readOK(r, r.devicePath(hc.Name, layout.IBSwitchesFile), ibfiles.ParseIBSwitches)
	if sws == nil {
		return
	}
	for _, sw := range sws.Switches {
		sc := &collectors.IBSwitchCapture{IBSwitch: sw}
		for port := 0; port <= sw.Ports; port++ {
			file := func(op string) string {
				return r.devicePath(hc.Name, layout.SwitchSMPQueryFile(op, sw.LID, port))
			}
			pi, st := readParse(r, file("portinfo"), ibfiles.ParsePortInfo)
			if st != fileOK {
				continue
			}
			pc := &collectors.IBSwitchPortCapture{Port: port, PortInfo: pi}
			if pi.LinkState == "Active" {
				var s1, s2 fileState
				pc.SL2VL, s1 = readParse(r, file("sl2vl"), ibfiles.ParseSL2VL)
				pc.VLArb, s2 = readParse(r, file("vlarb"), ibfiles.ParseVLArb)
				for i, s := range []fileState{s1, s2} {
					if s == fileAbsent {
						hc.Missing = append(hc.Missing, layout.SwitchSMPQueryFile([]string{"sl2vl", "vlarb"}[i], sw.LID, port))
					}
				}
				pc.SL2VL, pc.VLArb = nilIf(s1, pc.SL2VL), nilIf(s2, pc.VLArb)
			}
			sc.Ports = append(sc.Ports, pc)
		}
		ib.Switches = append(ib.Switches, sc)
	}
}
