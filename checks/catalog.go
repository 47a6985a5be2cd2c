package checks

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// All is the catalog, in the order `qoslint explain` lists it.
func All() []*Check {
	return []*Check{
		switchRoCEMode, switchTrust, switchDSCPMap, switchPFC, switchQueueMap,
		switchECN, switchCNP, switchETSBandwidth, switchETS, switchPCPMap, switchBufferPool, switchBufferPG, switchBondQoS,
		pfcCableLength, linkPause, pfcWatchdog, ecmpHash, ecmpHashSeed, adaptiveRouting,
		packetTrim, packetTrimRemark, packetTrimServicePort,
		hostTrust, hostDSCPMap, hostPFC, hostETS, hostECN, hostCNP, hostToS, hostAppToS, hostRDMACMToS, hostRoCEVersion, hostNCCLQPs, hostNCCLFifoTC, hostFirmware, hostACS, mtu,
		linkMTU, linkQoS, linkPFC, cabling, railAlignment,
		evidencePausePriority, evidenceRoCEPriority, evidenceDCQCN, evidenceRoCELoss, evidenceLosslessDrops, evidenceECNQueue,
		wireDSCP, wireCNP, wireECN, wireEntropy,
		ibSL2VL, ibVLArb, ibSMConsistency, ibSLConsistency, ibAdaptiveRouting,
		k8sNicTemplate, k8sCNPConflict, k8sWorkloadToS,
	}
}

// Lookup finds a check by ID: one of All(), or NotCollected.
func Lookup(id string) *Check { return checksByID()[id] }

// checksByID indexes the catalog once: the formats look a check up for
// each status of a report, 650,000 at TestLintScale's size, and a scan of
// a fresh copy of the catalog each time was most of a JSON report's time.
var checksByID = sync.OnceValue(func() map[string]*Check {
	m := map[string]*Check{NotCollected.ID: NotCollected}
	for _, c := range All() {
		m[c.ID] = c
	}
	return m
})

func checkIndex(id string) int {
	for i, c := range All() {
		if c.ID == id {
			return i
		}
	}
	return len(All())
}

// validateRequires reports a check whose Requires names a check outside
// cat, or a cycle of Requires (TestCatalog).
func validateRequires(cat []*Check) error {
	const (
		unseen = iota
		visiting
		done
	)
	state := map[*Check]int{}
	var path []*Check
	var visit func(c *Check) error
	visit = func(c *Check) error {
		switch state[c] {
		case done:
			return nil
		case visiting:
			var ids []string
			for _, p := range path[slices.Index(path, c):] {
				ids = append(ids, p.ID)
			}
			return fmt.Errorf("checks require each other in a cycle: %s → %s", strings.Join(ids, " → "), c.ID)
		}
		state[c] = visiting
		path = append(path, c)
		for _, r := range c.Requires {
			if !slices.Contains(cat, r) {
				return fmt.Errorf("%s requires %q, which is not in the catalog", c.ID, r.ID)
			}
			if err := visit(r); err != nil {
				return err
			}
		}
		path = path[:len(path)-1]
		state[c] = done
		return nil
	}
	for _, c := range cat {
		if err := visit(c); err != nil {
			return err
		}
	}
	return nil
}
