package nvue

import "strings"

// objectPaths are NVUE schema nodes that are always objects, never leaves;
// `*` stands for one ID (interface name, profile name, priority). A command
// whose path ends at one of them, or one level below one of them, sets an
// object and has no value, because an object's members are keys:
//
//   - bare objects: `nv set system ntp` (CumulusNetworks/docs content/cumulus-linux-514/System-Configuration/NVIDIA-User-Experience-NVUE/NVUE-CLI.md), `nv set qos roce`
//     (§1.1), `nv set interface swp1 qos pfc-watchdog` (§1.6),
//     `nv set interface vlan10 router pim` and `... ip igmp` (CL-DOCS PIM page);
//   - collections, whose members NVUE YAML writes as `'3': {}`:
//     `switch-priority: {'0': {}, ...}` under qos traffic-pool (§3.2, 5.5.1
//     dump), `link: state: up: {}` (§3.1, oxidized 5.9.2 file),
//     `ip: address: 10.10.10.1/32: {}`, `vlan: '10': {}`, `vni: '10': {}` and
//     `interface swp1 bridge domain br_default: {}` (CL-DOCS startup.yaml
//     examples on the PIM and EVPN pages); qos pfc switch-priority is inferred
//     the same way (§3.2 "Inferred"); `vrf <vrf-id> router bgp address-family
//     ipv4-unicast network <static-network-id>` (CL-DOCS NVUE command
//     reference, "BGP Commands"), which NVUE YAML writes as
//     `network: 10.1.10.0/24: {}` (ipspace/netlab
//     netsim/ansible/templates/bgp/cumulus_nvue.j2);
//     `interface <id> packet-trim egress-eligibility traffic-class <tc-id>`
//     (content/nvue-reference/Set-and-Unset-Commands/Packet-Trimming.md; the
//     show commands address one class, `... traffic-class <tc-id>`) and
//     `system wjh channel <channel-id> trigger`, whose categories a channel
//     lists several of and unsets one by one ("nv unset system wjh channel
//     forwarding trigger l2", content/cumulus-linux-515/
//     Monitoring-and-Troubleshooting/Network-Troubleshooting/Mellanox-WJH.md).
//
// Every entry must be an object in every release: `interface * qos *` would
// be wrong, as `interface * qos shared-headroom-pool` is a leaf (§1.6).
var objectPaths = compilePatterns(
	"interface",
	"interface * link",
	"interface * link state",
	"interface * ip",
	"interface * ip address",
	"interface * ipv4",
	"interface * ipv4 address",
	"interface * ipv6",
	"interface * ipv6 address",
	"interface * qos",
	"interface * qos pfc-watchdog",
	"interface * router",
	"interface * router adaptive-routing",
	"interface * packet-trim",
	"interface * packet-trim egress-eligibility",
	"interface * packet-trim egress-eligibility traffic-class",
	"interface * bridge",
	"interface * bridge domain",
	"interface * bridge domain *",
	"interface * bridge domain * vlan",
	"bridge domain",
	"bridge domain *",
	"bridge domain * vlan",
	"bridge domain * vlan *",
	"bridge domain * vlan * vni",
	"vrf",
	"vrf *",
	"vrf * router",
	"vrf * router bgp",
	"vrf * router bgp neighbor",
	"vrf * router bgp peer-group",
	"vrf * router bgp address-family",
	"vrf * router bgp address-family *",
	"vrf * router bgp address-family * network",
	"vrf * router static",
	"qos roce",
	"qos pfc-watchdog",
	"qos mapping",
	"qos mapping *",
	"qos mapping * dscp",
	"qos mapping * pcp",
	"qos pfc",
	"qos pfc *",
	"qos pfc * switch-priority",
	"qos congestion-control",
	"qos congestion-control *",
	"qos congestion-control * traffic-class",
	"qos egress-queue-mapping",
	"qos egress-queue-mapping *",
	"qos egress-queue-mapping * switch-priority",
	"qos egress-scheduler",
	"qos egress-scheduler *",
	"qos egress-scheduler * traffic-class",
	"qos traffic-pool",
	"qos traffic-pool *",
	"qos traffic-pool * switch-priority",
	"qos link-pause",
	"qos link-pause *",
	"qos remark",
	"qos remark *",
	"qos remark * switch-priority",
	"qos egress-shaper",
	"qos egress-shaper *",
	"qos advance-buffer-config",
	"qos advance-buffer-config *",
	"router bgp",
	"router pim",
	"router adaptive-routing",
	"system ntp",
	"system wjh",
	"system wjh channel",
	"system wjh channel *",
	"system wjh channel * trigger",
	"system ntp server",
	"system aaa",
	"system aaa user",
	"service ntp",
	"service ntp *",
	"service ntp * server",
	"service dns",
	"service dns *",
	"service dns * server",
)

func compilePatterns(ps ...string) [][]string {
	out := make([][]string, len(ps))
	for i, p := range ps {
		out[i] = strings.Fields(p)
	}
	return out
}

func isObjectPath(path []string) bool {
	for _, p := range objectPaths {
		if matchPattern(p, path) {
			return true
		}
	}
	return false
}

func matchPattern(p, path []string) bool {
	if len(p) != len(path) {
		return false
	}
	for i, w := range p {
		if w != "*" && w != path[i] {
			return false
		}
	}
	return true
}

// lastIsValue reports whether the last word of an `nv set` path is a leaf's
// value rather than a key. Paths of one or two words are objects: every
// top-level NVUE key (interface, qos, system, router, evpn, ...) is an
// object, so its members are keys too (`nv set evpn`, `nv set system ntp`).
func lastIsValue(path []string) bool {
	n := len(path)
	return n > 2 && !isObjectPath(path) && !isObjectPath(path[:n-1])
}
