package pcap

import "github.com/qoslint/qoslint/internal/source"

// Notes are the remarks a capture earns: frames that could not be
// decoded, flows not tracked, no RoCEv2 at all.
func Notes(s *Summary) []*source.Error {
	var out []*source.Error
	if s.Undecodable > 0 {
		out = append(out, source.Errorf(s.File, 0, "%d of %d packets could not be decoded (first: packet %d at %s: %s)",
			s.Undecodable, s.Frames, s.FirstUndecodable.Packet, s.FirstUndecodable.Time.UTC().Format("2006-01-02T15:04:05.000000Z"), s.UndecodableWhy))
	}
	if s.Untracked > 0 {
		out = append(out, source.Errorf(s.File, 0, "%d RoCEv2 packets belong to flows beyond the first %d and were not judged", s.Untracked, len(s.Flows)))
	}
	if s.RoCE == 0 {
		out = append(out, source.Errorf(s.File, 0, "no RoCEv2 packet (UDP 4791 with an InfiniBand BTH) among its %d packets: nothing to judge", s.Frames))
	}
	for _, n := range out {
		n.Device = s.Device
	}
	return out
}
