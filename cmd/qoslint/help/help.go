// Package help is qoslint's reference: markdown topics embedded in the
// binary, which `qoslint help TOPIC` prints as `go help` prints its topics.
// The README is the first hour; everything a user looks up later lives
// here, one file per topic, so the binary a user runs carries the
// documentation of its own version.
package help

import (
	"embed"
	"sort"
	"strings"
)

//go:embed *.md
var files embed.FS

// Topic is one reference page.
type Topic struct {
	Name  string // what follows `qoslint help`, and the file's base name
	Short string // one line for the topic list
}

// topics is the order `qoslint help` lists them in: from what a fabric
// is, through what is judged and how it is reported, to running it.
var topics = []Topic{
	{"commands", "every command and its flags, output files, colour, completion, exit codes"},
	{"fabric", "the fabric directory: the device files lint reads, and the capture manifest"},
	{"inventory", "inventory.yaml / inventory.hcl: the fabric, its devices, ports and fabric type"},
	{"policy", "the intended RoCE policy every device is judged against"},
	{"presets", "the named policies (cumulus-default, spectrum-x-ra2.0, ...)"},
	{"checks", "every check, selecting checks, and how qoslint compares with netq check roce"},
	{"waivers", "qoslint-waivers.yaml: accepting a finding, with a reason and an expiry"},
	{"formats", "the report formats: text, JSON, markdown, JUnit, SARIF, HTML, Prometheus"},
	{"ci", "lint as a CI gate: SARIF, JUnit, PR comments, pre-commit"},
	{"remediation", "fix and render: corrective commands, rollbacks, previews, new devices"},
	{"live", "live collection: audit and collect over SSH and gNMI, counters, the job environment"},
	{"serve", "scheduled audits with Prometheus metrics, /probe, the latest report and drift"},
	{"snapshots", "snapshot and drift: the effective model as JSON, and what changed between two"},
	{"trace", "following RoCE from one GPU NIC to another, hop by hop"},
	{"pcap", "judging packet captures with the wire checks"},
	{"kubernetes", "Kubernetes manifests: NIC configuration templates and workload environments"},
	{"infiniband", "InfiniBand fabrics: SL2VL, VL arbitration, OpenSM, ibdiagnet"},
	{"development", "the packages, and adding a check"},
}

// aliases are other names a user may try first.
var aliases = map[string]string{
	"fabric-directory": "fabric",
	"exit-codes":       "commands",
	"policies":         "policy",
	"waiver":           "waivers",
	"k8s":              "kubernetes",
	"ib":               "infiniband",
	"json":             "formats",
	"sarif":            "formats",
	"junit":            "formats",
	"html":             "formats",
	"markdown":         "formats",
	"prometheus":       "formats",
	"metrics":          "serve",
	"fix":              "remediation",
	"render":           "remediation",
	"adding-a-check":   "development",
}

// Topics lists every topic in the order `qoslint help` shows them.
func Topics() []Topic { return append([]Topic(nil), topics...) }

// Aliases lists the other names Lookup accepts, sorted.
func Aliases() []string {
	var a []string
	for k := range aliases {
		a = append(a, k)
	}
	sort.Strings(a)
	return a
}

// Lookup is a topic's markdown by its name or an alias, and the topic's
// name; ok is false for a name that is neither.
func Lookup(name string) (text, topic string, ok bool) {
	name = strings.ToLower(name)
	if a, found := aliases[name]; found {
		name = a
	}
	for _, t := range topics {
		if t.Name == name {
			data, err := files.ReadFile(t.Name + ".md")
			if err != nil {
				return "", "", false
			}
			return string(data), t.Name, true
		}
	}
	return "", "", false
}

// Files is every embedded topic file's name, sorted; a test holds them to
// the topic list.
func Files() []string {
	entries, _ := files.ReadDir(".")
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
