package hostfiles

// The setters below change q the way the matching `mlnx_qos -i <netdev>`
// command changes the NIC, so that FormatMlnxQos(q) is what the host prints
// afterwards. They model the DCB-netlink path every MLNX_OFED from 4.2 on
// takes (no qos/trust sysfs in knneth/mlnx-ofa_kernel
// drivers/net/ethernet/mellanox/mlx5/core/en_sysfs.c after OFED 4.1), where mlnx_qos infers the trust
// state from the DSCP APP entries and prints those entries as dscp2prio.
// Line numbers in q keep pointing at the file q was parsed from; parse the
// formatted output for positions in the preview. A nil q is left alone.

// firmwareDSCP2Prio is the table `mlnx_qos --trust dscp` installs:
// DcbAppTable.setDefaultAppEntry runs
// `ctrl.set_ieee_app(selector, i >> 3, i) #firmware default` for i in 0..63
// (Mellanox/mlnx-tools python/Python/dcbnetlink.py), which is also the
// table every real output prints (e.g. att/netarbiter nvmf/OUTPUTSAMPLE.setup-nic-lossless-layer3.sh.md).
func firmwareDSCP2Prio() map[int]int {
	m := make(map[int]int, 64)
	for d := range 64 {
		m[d] = d >> 3
	}
	return m
}

// SetTrust applies `mlnx_qos --trust t` (Trust.setTrust in python/mlnx_qos):
//
//   - "pcp": delAppEntry deletes every DSCP APP entry, so the dscp2prio
//     block disappears;
//   - "dscp": when there is no DSCP APP entry (the state mlnx_qos reports as
//     pcp), setDefaultAppEntry installs the firmware default DSCP>>3 for all
//     64 DSCPs; when there are entries the tool already reports dscp and
//     changes nothing.
//
// mlnx_qos rejects any other value ("Invalid trust state command"), so
// SetTrust ignores it. The preview assumes the command succeeds, even on a
// NIC that printed "Priority trust state is not supported".
func (q *MlnxQos) SetTrust(t string) {
	if q == nil {
		return
	}
	switch t {
	case "pcp":
		q.DSCP2Prio = nil
	case "dscp":
		if len(q.DSCP2Prio) == 0 {
			q.DSCP2Prio = firmwareDSCP2Prio()
		}
	default:
		return
	}
	q.Trust = t
}

// SetPFC applies `mlnx_qos --pfc` with the 8 flags, priority 0 first. The
// tool keeps the cable length (it re-reads get_ieee_pfc_delay) and the
// prio→buffer map is the firmware's business, so only the enabled row
// changes.
func (q *MlnxQos) SetPFC(p [8]bool) {
	if q == nil {
		return
	}
	q.PFC = p
	q.HasPFC = true
}

// SetDSCP applies `mlnx_qos --dscp2prio set,dscp,prio`: the DSCP APP entry
// for dscp now says prio (mlx5e_dcbnl_ieee_setapp deletes the old entry of
// that DSCP and adds the new one). The first entry switches trust to dscp
// ("When the first dscp to priority APP entry is added by the user, the
// trust state is changed to dscp", --dscp2prio help in Mellanox/mlnx-tools python/mlnx_qos); the firmware's mappings
// of the other DSCPs are not APP entries, so they are not printed.
// mlnx_qos rejects dscp > 63 or prio > 7, and so does SetDSCP (no change).
func (q *MlnxQos) SetDSCP(dscp, prio int) {
	if q == nil || dscp < 0 || dscp > 63 || prio < 0 || prio > 7 {
		return
	}
	if len(q.DSCP2Prio) == 0 {
		q.DSCP2Prio = map[int]int{}
		q.Trust = "dscp"
	}
	q.DSCP2Prio[dscp] = prio
}

// DelDSCP applies `mlnx_qos --dscp2prio del,dscp,prio`. The kernel deletes
// only an entry that maps dscp to that very prio (mlx5e_dcbnl_ieee_delapp
// returns -ENOENT otherwise and mlnx_qos prints "dscp2prio command failed"),
// so DelDSCP then changes nothing. Deleting the last entry switches trust to
// pcp ("When the last dscp to priority APP entry is deleted by the user, the
// trust state is changed to pcp") and the dscp2prio block disappears.
func (q *MlnxQos) DelDSCP(dscp, prio int) {
	if q == nil {
		return
	}
	if p, ok := q.DSCP2Prio[dscp]; !ok || p != prio {
		return
	}
	delete(q.DSCP2Prio, dscp)
	if len(q.DSCP2Prio) == 0 {
		q.DSCP2Prio = nil
		q.Trust = "pcp"
	}
}

// SetETS applies `mlnx_qos --tsa T0,...,T7 --tcbw B0,...,B7`: each printed
// tc block takes the algorithm and, for ets, the bandwidth of its TC
// (Mellanox/mlnx-tools python/mlnx_qos sets tsa[i] and tc_bw[i] for every
// TC, then set_ieee_ets; pretty_print prints "ets, bw: N%" only for ets).
// mlnx_qos refuses a list of other than 8 items, an algorithm other than
// strict, ets or vendor, a bandwidth outside 0..100 and a non-zero
// bandwidth for a TC that is not ets, and the mlx5 driver ETS shares that
// do not add up to 100 (mlx5e_dbcnl_validate_ets, Linux
// drivers/net/ethernet/mellanox/mlx5/core/en_dcbnl.c); SetETS then
// changes nothing and reports false. A block whose TC was not printed
// (TC -1) cannot be matched and is left alone.
func (q *MlnxQos) SetETS(tsa [8]string, bw [8]int) bool {
	if q == nil || !validETS(tsa, bw) {
		return false
	}
	for i := range q.TCs {
		tc := &q.TCs[i]
		if tc.TC < 0 || tc.TC > 7 {
			continue
		}
		tc.TSA, tc.BW = tsa[tc.TC], 0
		if tsa[tc.TC] == "ets" {
			tc.BW = bw[tc.TC]
		}
	}
	return true
}

func validETS(tsa [8]string, bw [8]int) bool {
	sum, ets := 0, false
	for i := range tsa {
		switch {
		case bw[i] < 0 || bw[i] > 100:
			return false
		case tsa[i] == "ets":
			ets = true
			sum += bw[i]
		case tsa[i] != "strict" && tsa[i] != "vendor", bw[i] != 0:
			return false
		}
	}
	return !ets || sum == 100
}
