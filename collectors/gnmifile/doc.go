// Package gnmifile is the gnmi-counters.json file that collectors/gnmi
// writes from a switch's gNMI subscription, and its parser.
//
// # File format: devices/<switch>/gnmi-counters.json
//
// The file is a JSON array of gNMI Notification messages
// (github.com/openconfig/gnmi/proto/gnmi), each in the protobuf JSON mapping
// (google.golang.org/protobuf/encoding/protojson, lowerCamelCase field
// names), exactly as received up to the first sync_response. Nothing is
// added or removed: the timestamps, prefixes and typed values are the
// target's own. For a stable, diffable file:
//
//   - notifications are sorted by the path string of prefix + first update
//     (then by their JSON text), and the updates inside one notification by
//     their path string;
//   - each notification is compact JSON on a line of its own, indented by
//     two spaces, between a "[" line and a "]" line (protojson's own
//     whitespace is not stable from build to build, so it is compacted).
//
// An example (one notification, wrapped here for reading):
//
//	[
//	  {"timestamp":"1700000000000000000","prefix":{"elem":[{"name":"qos"},{"name":"interfaces"},
//	   {"name":"interface","key":{"interface-id":"swp1"}},{"name":"output"},{"name":"queues"},
//	   {"name":"queue","key":{"name":"3"}},{"name":"state"}]},
//	   "update":[{"path":{"elem":[{"name":"transmit-pkts"}]},"val":{"uintVal":"1234"}}]}
//	]
//
// Readers must not rely on this layout: any JSON array of notifications
// parses, whatever its whitespace or order.
//
// ParseCounters reads such a file, without the generated gNMI package
// (see decode.go), into a flat, typed view. It understands
// the leaves below (prefix + path, module prefixes such as "openconfig-qos:"
// ignored) and skips every other path, so files with more counters still
// parse:
//
//	/qos/interfaces/interface[interface-id=I]/output/queues/queue[name=Q]/state/
//	    transmit-pkts transmit-octets ecn-marked-pkts wred-dropped-pkts no-buffer-uc-dropped-pkts
//	/qos/interfaces/interface[interface-id=I]/switch-priority[priority=P]/state/counters/
//	    in-pause-pkts out-pause-pkts
//	/qos/interfaces/interface[interface-id=I]/switch-priority[priority=P]/state/
//	    in-pause-duration out-pause-duration
//
// A value may be a uintVal, a non-negative intVal, a stringVal holding a
// decimal, or a jsonVal/jsonIetfVal holding a number or a decimal string
// (RFC 7951 encodes 64-bit integers as strings); a jsonVal at a "state"
// container holding an object of those leaves is accepted as well. When a
// leaf appears twice, the later timestamp wins (on a tie, the later
// notification in the file).
package gnmifile
