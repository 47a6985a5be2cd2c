package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

// Write writes s as one JSON document, deterministically: the same snapshot
// always gives the same bytes.
func Write(w io.Writer, s *Snapshot) error { return EncodeJSON(w, s) }

// Read parses a snapshot written by Write. file names the input in errors.
// The "schema" field is checked first, so a document of another version or
// kind fails with a message that says so; the rest must then satisfy the
// embedded JSON Schema. Every error is a *source.Error with file and line.
func Read(file string, data []byte) (*Snapshot, error) {
	var head struct {
		Schema *string `json:"schema"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, jsonError(file, data, err)
	}
	switch {
	case head.Schema == nil:
		return nil, source.Errorf(file, 1, "not a qoslint snapshot: no \"schema\" field (want %q)", Version)
	case *head.Schema != Version:
		return nil, source.Errorf(file, lineOf(data, []string{"schema"}),
			"snapshot schema %q is not supported: this qoslint reads %q (take the snapshot again with this version)", *head.Schema, Version)
	}
	if line, err := Validate(SnapshotSchemaFile, data); err != nil {
		return nil, source.Errorf(file, max(line, 1), "not a valid %s snapshot: %v", Version, err)
	}
	s := &Snapshot{}
	if err := json.Unmarshal(data, s); err != nil {
		return nil, jsonError(file, data, err)
	}
	if err := check(s); err != nil {
		return nil, source.Errorf(file, max(lineOf(data, err.loc), 1), "%s", err.msg)
	}
	return s, nil
}

// jsonError locates a decoding error.
func jsonError(file string, data []byte, err error) error {
	off := int64(0)
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 || off > int64(len(data)) {
		off = 0
	}
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	return source.Errorf(file, line, "not a qoslint snapshot: %v", err)
}

// maxPorts bounds the ports of one switch in a snapshot, far above any
// real switch (a 64-port switch broken out 8 ways has 512).
const maxPorts = 16384

type checkError struct {
	loc []string
	msg string
}

// check verifies what the schema cannot say: port and DSCP ranges must
// expand, since Diff compares them one port and one DSCP at a time.
func check(s *Snapshot) *checkError {
	at := func(parts ...any) []string {
		out := make([]string, len(parts))
		for i, p := range parts {
			out[i] = fmt.Sprint(p)
		}
		return out
	}
	// ports checks a range and counts its ports into *total: each range is
	// bounded (model.ExpandNames), their number is not, and a small file
	// must not stand for millions of ports.
	ports := func(sw, spec string, loc []string, total *int) *checkError {
		if spec == "" {
			return nil
		}
		names, err := model.ExpandNames(spec)
		if err != nil {
			return &checkError{loc, fmt.Sprintf("ports %q: %v", spec, err)}
		}
		if *total += len(names); *total > maxPorts {
			return &checkError{loc, fmt.Sprintf("switch %s has more than %d ports", sw, maxPorts)}
		}
		return nil
	}
	dscps := func(m DSCPMap, loc []string) *checkError {
		for i, o := range m.Origins {
			if _, err := model.ExpandInts(o.DSCP, 0, 63); err != nil {
				return &checkError{append(loc, "origins", fmt.Sprint(i), "dscp"), fmt.Sprintf("DSCPs %q: %v", o.DSCP, err)}
			}
		}
		return nil
	}
	for i, sw := range s.Switches {
		var groups, mtu, ar int
		for j, g := range sw.PortGroups {
			if e := ports(sw.Name, g.Ports, at("switches", i, "port_groups", j, "ports"), &groups); e != nil {
				return e
			}
			if e := dscps(g.DSCP, at("switches", i, "port_groups", j, "dscp_map")); e != nil {
				return e
			}
		}
		for j, m := range sw.MTU {
			if e := ports(sw.Name, m.Ports, at("switches", i, "mtu", j, "ports"), &mtu); e != nil {
				return e
			}
		}
		for j, m := range sw.PortAdaptiveRouting {
			if e := ports(sw.Name, m.Ports, at("switches", i, "port_adaptive_routing", j, "ports"), &ar); e != nil {
				return e
			}
		}
		if e := checkFlow(sw, at("switches", i, "flow_control"), ports); e != nil {
			return e
		}
	}
	for i, h := range s.Hosts {
		for j, n := range h.NICs {
			if e := dscps(n.DSCP, at("hosts", i, "nics", j, "dscp_map")); e != nil {
				return e
			}
		}
	}
	return nil
}

// checkFlow checks the flow_control section's interface ranges.
func checkFlow(sw Switch, loc []string, ports func(sw, spec string, loc []string, total *int) *checkError) *checkError {
	if sw.Flow == nil {
		return nil
	}
	at := func(parts ...string) []string { return append(append([]string(nil), loc...), parts...) }
	var bonds, wd, lp int
	for j, b := range sw.Flow.Bonds {
		if e := ports(sw.Name, b.Members, at("bonds", fmt.Sprint(j), "members"), &bonds); e != nil {
			return e
		}
	}
	for j, v := range sw.Flow.Watchdog {
		if e := ports(sw.Name, v.Ports, at("pfc_watchdog", fmt.Sprint(j), "ports"), &wd); e != nil {
			return e
		}
	}
	for j, v := range sw.Flow.LinkPause {
		if e := ports(sw.Name, v.Ports, at("link_pause", fmt.Sprint(j), "ports"), &lp); e != nil {
			return e
		}
	}
	return nil
}
