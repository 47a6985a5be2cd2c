package app

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/qoslint/qoslint/checks/trace"
	"github.com/qoslint/qoslint/collectors/fabric"

	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/render"
)

// ParseEndpoint reads HOST or HOST:NIC.
func ParseEndpoint(s string) (trace.Endpoint, error) {
	host, nic, _ := strings.Cut(s, ":")
	if host == "" || strings.Contains(nic, ":") {
		return trace.Endpoint{}, fmt.Errorf("%q is not HOST or HOST:NIC", s)
	}
	return trace.Endpoint{Host: host, NIC: nic}, nil
}

// Trace writes the ECMP paths between src and dst of the fabric directory
// dir and returns the exit code: 2 when an endpoint or a path cannot be
// resolved or the input has errors (the trace is still printed when it
// could be built), 1 when a path has a broken hop, else 0.
func Trace(out, errOut io.Writer, dir, src, dst, format string) int {
	write, err := render.TraceWriter(format)
	if err != nil {
		fmt.Fprintf(errOut, "qoslint: %v\n", err)
		return ExitInput
	}
	s, err := ParseEndpoint(src)
	if err == nil {
		var d trace.Endpoint
		if d, err = ParseEndpoint(dst); err == nil {
			return traceFabric(out, errOut, dir, s, d, write)
		}
	}
	fmt.Fprintf(errOut, "qoslint: %v\n", err)
	return ExitInput
}

func traceFabric(out, errOut io.Writer, dir string, src, dst trace.Endpoint, write func(io.Writer, *trace.TraceResult) error) int {
	dir = FabricDir(dir)
	inv, err := inventory.Load(dir)
	if err != nil {
		printLoadError(errOut, err)
		return ExitInput
	}
	capture := offline.Collect(dir, inv)
	f := fabric.Build(inv, capture)
	// Input errors do not stop the trace (a hop they hide is unknown), but
	// the exit code says the input was not all read, as lint's does.
	var problems []string
	for _, e := range append(capture.Errors, f.Problems...) {
		problems = append(problems, e.Error())
	}
	sort.Strings(problems)
	for _, p := range problems {
		fmt.Fprintf(errOut, "qoslint: %s\n", p)
	}
	r, err := trace.Trace(f, src, dst)
	if err != nil {
		fmt.Fprintf(errOut, "qoslint: %v\n", err)
		return ExitInput
	}
	if err := write(out, r); err != nil {
		fmt.Fprintf(errOut, "qoslint: writing the trace: %v\n", err)
		return ExitInput
	}
	switch {
	case len(problems) > 0:
		return ExitInput
	case r.Broken():
		return ExitFindings
	}
	return ExitOK
}
