package sim

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/protobuf/proto"

	"github.com/qoslint/qoslint/collectors/gnmi"
	"github.com/qoslint/qoslint/internal/layout"
)

// baseTimestamp is the synthetic baseline's sample time (ns); each
// Advance moves it on by sampleStep, so served data is deterministic.
const (
	baseTimestamp = int64(1_700_000_000_000_000_000)
	sampleStep    = int64(10_000_000_000)
)

// growth is how much a counter leaf grows per Advance. Only pause and
// transmit counters move: what a RoCE flow under PFC looks like.
var growth = map[string]uint64{
	"transmit-pkts":      1000,
	"transmit-octets":    1000 * 4096,
	"in-pause-pkts":      10,
	"out-pause-pkts":     20,
	"in-pause-duration":  100,
	"out-pause-duration": 200,
}

// gnmiBaseline reads the switch's devices/<name>/gnmi-counters.json, or
// makes a synthetic one when the file does not exist.
func (d *device) gnmiBaseline() ([]*gpb.Notification, error) {
	file := filepath.Join(d.dir, layout.GNMIFile)
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return syntheticCounters(d.name), nil
	}
	if err != nil {
		return nil, err
	}
	ns, _, err := gnmi.ReadFile(file, data)
	return ns, err
}

// gnmiSample is the baseline after epoch Advances: counters grown and
// timestamps moved on. The baseline is not modified.
func gnmiSample(base []*gpb.Notification, epoch int) []*gpb.Notification {
	out := make([]*gpb.Notification, 0, len(base))
	for _, n := range base {
		n = proto.Clone(n).(*gpb.Notification)
		if epoch == 0 {
			out = append(out, n)
			continue
		}
		n.Timestamp += int64(epoch) * sampleStep
		for _, u := range n.Update {
			elems := u.GetPath().GetElem()
			if len(elems) == 0 {
				continue
			}
			g := growth[elems[len(elems)-1].GetName()] * uint64(epoch)
			switch v := u.GetVal().GetValue().(type) {
			case *gpb.TypedValue_UintVal:
				v.UintVal += g
			case *gpb.TypedValue_IntVal:
				v.IntVal += int64(g)
			}
		}
		out = append(out, n)
	}
	return out
}

// syntheticCounters is a deterministic baseline for a switch without a
// counters file: swp1..4, queues 0, 3 and 6, priorities 0..7. Priority
// and queue 3 carry the RoCE traffic (the NVUE RoCE default,
// CumulusNetworks/docs content/cumulus-linux-515/Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md), so
// they have most packets, ECN marks and the pause frames.
func syntheticCounters(name string) []*gpb.Notification {
	h := fnv.New64a()
	_, _ = h.Write([]byte(name))
	seed := h.Sum64()
	r := func(i uint64, span uint64) uint64 { // cheap deterministic spread
		x := seed ^ (i * 0x9E3779B97F4A7C15)
		x ^= x >> 31
		x *= 0xBF58476D1CE4E5B9
		x ^= x >> 29
		return x % span
	}
	var ns []*gpb.Notification
	var i uint64
	for port := 1; port <= 4; port++ {
		ifname := "swp" + strconv.Itoa(port)
		for _, q := range []int{0, 3, 6} {
			i++
			pkts := 1000 + r(i, 100_000)
			ecn, wred := uint64(0), uint64(0)
			if q == 3 {
				pkts *= 100
				ecn = pkts / 1000
			} else {
				wred = r(i+1000, 50)
			}
			ns = append(ns, leaves(
				fmt.Sprintf("/qos/interfaces/interface[interface-id=%s]/output/queues/queue[name=%d]/state", ifname, q),
				[][2]any{
					{"transmit-pkts", pkts},
					{"transmit-octets", pkts * (256 + r(i+2000, 3800))},
					{"ecn-marked-pkts", ecn},
					{"wred-dropped-pkts", wred},
					{"no-buffer-uc-dropped-pkts", uint64(0)},
				}))
		}
		for prio := 0; prio <= 7; prio++ {
			i++
			var in, out uint64
			if prio == 3 {
				in, out = 100+r(i, 5000), 50+r(i+3000, 2000)
			}
			ns = append(ns, leaves(
				fmt.Sprintf("/qos/interfaces/interface[interface-id=%s]/switch-priority[priority=%d]/state", ifname, prio),
				[][2]any{
					{"counters/in-pause-pkts", in},
					{"counters/out-pause-pkts", out},
					{"in-pause-duration", in * 3},
					{"out-pause-duration", out * 3},
				}))
		}
	}
	return ns
}

func leaves(prefix string, kv [][2]any) *gpb.Notification {
	p, err := gnmi.ParsePath(prefix)
	if err != nil {
		panic(err) // a constant format above: a bug, not input
	}
	n := &gpb.Notification{Timestamp: baseTimestamp, Prefix: p}
	for _, e := range kv {
		up, err := gnmi.ParsePath(e[0].(string))
		if err != nil {
			panic(err)
		}
		n.Update = append(n.Update, &gpb.Update{Path: up, Val: &gpb.TypedValue{Value: &gpb.TypedValue_UintVal{UintVal: e[1].(uint64)}}})
	}
	return n
}
