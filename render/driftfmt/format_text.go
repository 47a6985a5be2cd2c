package driftfmt

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/qoslint/qoslint/checks/drift"
)

// WriteText writes the drift for a terminal: one block per device, a line
// per change with its effect and checks, the evidence below it, and the
// summary last where a terminal leaves it in view.
func WriteText(w io.Writer, d *drift.Drift) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "qoslint drift: %s → %s\n", sideLine(d.Old), sideLine(d.New))
	fmt.Fprintf(b, "judged against the policy %s\n", policyLine(d.Policy))
	if len(d.Fabric) > 0 {
		fmt.Fprintf(b, "\nfabric\n")
		textChanges(b, d.Fabric)
	}
	for _, dev := range d.Devices {
		fmt.Fprintf(b, "\n%s (%s, %s)\n", dev.Name, dev.Kind, dev.Status)
		if dev.Status == drift.StatusVanished {
			fmt.Fprintf(b, "  no longer in the input\n")
		}
		textChanges(b, dev.Changes)
	}
	if len(d.InputErrors) > 0 {
		fmt.Fprintf(b, "\ninput errors (the values they touch are not known; the drift may be incomplete):\n")
		for _, e := range d.InputErrors {
			fmt.Fprintf(b, "  %s\n", inputErrorLine(e))
		}
	}
	if len(d.Notes) > 0 {
		fmt.Fprintf(b, "\nnotes\n")
		for _, n := range d.Notes {
			fmt.Fprintf(b, "  %s\n", n)
		}
	}
	word := "NO DRIFT"
	if d.Summary.Drift {
		word = "DRIFT"
	}
	fmt.Fprintf(b, "\n%s: %s\n", word, summaryLine(d))
	return b.Flush()
}

func textChanges(b *bufio.Writer, cs []drift.Change) {
	for _, c := range cs {
		line := "  "
		if c.Interface != "" {
			line += c.Interface + ": "
		}
		line += c.Message
		if e := effectWord(c.Effect); e != "" {
			line += "  [" + e
			if len(c.Checks) > 0 {
				line += ": " + strings.Join(c.Checks, ", ")
			}
			line += "]"
		}
		fmt.Fprintln(b, line)
		if c.AfterOrigin != "" {
			fmt.Fprintf(b, "      evidence: %s\n", c.AfterOrigin)
		}
		if c.BeforeOrigin != "" && c.BeforeOrigin != c.AfterOrigin {
			fmt.Fprintf(b, "           was: %s\n", c.BeforeOrigin)
		}
	}
}
