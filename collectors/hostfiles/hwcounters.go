package hostfiles

import (
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

// The RDMA hw_counters qoslint reads, one file each below
// /sys/class/infiniband/<ibdev>/ports/<port>/hw_counters/. Names from the
// Linux mlx5 RDMA driver (drivers/infiniband/hw/mlx5/counters.c: cong_cnts,
// out_of_seq_q_cnts, retrans_q_cnts); meanings from the commits that added
// them: e1f24a79f424 "IB/mlx5: Support congestion related counters" (the
// DCQCN ones) and 0ad17a8f7fa0 "IB/mlx5: Add port protocol stats" (the
// transport ones). Each group exists only when the firmware reports the
// capability (cc_query_allowed, out_of_seq_cnt, retransmission_q_counters),
// so any of them may be absent.
const (
	// HWCNPSent: CNPs the notification point sent in answer to CE-marked
	// RoCE packets.
	HWCNPSent = "np_cnp_sent"
	// HWECNMarkedRoCE: CE-marked RoCE packets the notification point
	// received.
	HWECNMarkedRoCE = "np_ecn_marked_roce_packets"
	// HWCNPHandled / HWCNPIgnored: CNPs the reaction point acted on /
	// ignored.
	HWCNPHandled = "rp_cnp_handled"
	HWCNPIgnored = "rp_cnp_ignored"
	// HWOutOfSequence: packets received with a PSN beyond the expected one
	// (the responder saw a gap: packets were lost on the way in).
	HWOutOfSequence = "out_of_sequence"
	// HWPacketSeqErr: NAK-sequence-error packets received (the peer saw
	// a gap in what this NIC sent).
	HWPacketSeqErr = "packet_seq_err"
	// HWImpliedNakSeqErr: responses whose PSN implied that earlier
	// packets were lost.
	HWImpliedNakSeqErr = "implied_nak_seq_err"
	// HWLocalAckTimeoutErr: times a QP's ACK timer expired (a lost packet
	// at the tail of a message, or a peer that stopped answering).
	HWLocalAckTimeoutErr = "local_ack_timeout_err"
	// HWRnrNakRetryErr: RNR NAKs retried beyond the limit: the receiver
	// had no receive buffer posted, the application's doing, not the
	// network's.
	HWRnrNakRetryErr = "rnr_nak_retry_err"
)

// HWCounterNames are the files read, in the driver's group order.
var HWCounterNames = []string{
	HWCNPIgnored, HWCNPHandled, HWECNMarkedRoCE, HWCNPSent,
	HWOutOfSequence,
	HWRnrNakRetryErr, HWPacketSeqErr, HWImpliedNakSeqErr, HWLocalAckTimeoutErr,
}

// HWCounter is one hw_counters file; File "" means it was not captured.
type HWCounter struct {
	Value uint64
	File  string
}

// Present reports whether the capture has the counter.
func (c HWCounter) Present() bool { return c.File != "" }

// HWCounters are the hw_counters of one RDMA device port.
type HWCounters struct {
	Dir    string
	byName map[string]HWCounter
}

// Get returns one counter by name.
func (h *HWCounters) Get(name string) HWCounter {
	if h == nil {
		return HWCounter{}
	}
	return h.byName[name]
}

// ParseHWCounter reads one hw_counters file. The RDMA core prints every
// one as sprintf(buf, "%llu\n", value) (drivers/infiniband/core/sysfs.c
// print_hw_stat), so the content is an unsigned 64-bit decimal and a
// newline; surrounding blanks are tolerated as in the other sysfs files.
func ParseHWCounter(file string, data []byte) (uint64, error) {
	s := strings.TrimSpace(string(data))
	if s == "" {
		return 0, source.Errorf(file, 1, "empty hw_counters file: the RDMA core prints \"%%llu\\n\"")
	}
	if strings.ContainsRune(s, '\n') {
		return 0, source.Errorf(file, 1, "more than one line in a hw_counters file: %q", clip(s))
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, source.Errorf(file, 1, "hw_counters value %q is not an unsigned decimal", clip(s))
		}
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, source.Errorf(file, 1, "hw_counters value %q is not a 64-bit unsigned decimal", clip(s))
	}
	return v, nil
}

// ReadHWCounters reads the hw_counters of ibdev's port from a capture that
// mirrors /sys below root. It returns nil when none of HWCounterNames was
// captured (not collected); a file that is there but malformed is
// reported and left out, and the others are still read.
func ReadHWCounters(fsys fs.FS, root, ibdev string, port int) (*HWCounters, []error) {
	if !validIBName(ibdev) || port < 1 {
		return nil, nil // ReadSysfs reports the bad name once
	}
	r := &sysfsReader{fsys: fsys}
	h := &HWCounters{Dir: layout.HWCountersDir(root, ibdev, port), byName: map[string]HWCounter{}}
	for _, name := range HWCounterNames {
		file := path.Join(h.Dir, name)
		data, ok := r.read(file)
		if !ok {
			continue
		}
		v, err := ParseHWCounter(file, data)
		if err != nil {
			r.errs = append(r.errs, err)
			continue
		}
		h.byName[name] = HWCounter{Value: v, File: file}
	}
	if len(h.byName) == 0 {
		return nil, r.errs
	}
	return h, r.errs
}
