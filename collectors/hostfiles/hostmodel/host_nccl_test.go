package hostmodel

import (
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/model"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/hostfiles"
)

func ncclEnv(t *testing.T, src string) *hostfiles.NCCLEnv {
	t.Helper()
	e, err := hostfiles.ParseNCCLEnv("nccl-env.txt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// The precedence is NCCL's own: getenv after initEnvFunc loaded
// $NCCL_CONF_FILE or ~/.nccl.conf, then /etc/nccl.conf, each with
// setenv(name, value, 0) (NVIDIA/nccl src/misc/param.cc, src/os/linux.cc).
func TestNCCLLayers(t *testing.T) {
	const none = "\x00absent" // layer not collected
	for _, tc := range []struct {
		name           string
		env, home, etc string
		forced         int // traffic_class Global, -1 unset
		known          bool
		tos            int
		layer, origin  string
		unknown        []string
		note           string // part of a host note, "" for none
	}{
		{name: "only /etc sets it", env: none, home: none, etc: "NCCL_IB_TC=106\n", forced: -1,
			known: true, tos: 106, layer: model.LayerEtc, origin: "nccl.conf:1", unknown: []string{"the job environment", "~/.nccl.conf"}},
		{name: "home beats /etc", env: none, home: "NCCL_IB_TC=104\n", etc: "NCCL_IB_TC=26\n", forced: -1,
			known: true, tos: 104, layer: model.LayerHome, origin: "home-nccl.conf:1", unknown: []string{"the job environment"}},
		{name: "environment beats both files", env: "HOME=/home/a\nNCCL_IB_TC=96\n", home: "NCCL_IB_TC=104\n", etc: "NCCL_IB_TC=26\n", forced: -1,
			known: true, tos: 96, layer: model.LayerEnv, origin: "nccl-env.txt:2"},
		{name: "empty value in the environment blocks the files", env: "HOME=/h\nNCCL_IB_TC=\n", home: none, etc: "NCCL_IB_TC=106\n", forced: -1,
			known: true, tos: 0, layer: model.LayerEnv, origin: "nccl-env.txt:2"},
		{name: "nothing sets it: NCCL default", env: "HOME=/h\n", home: "NCCL_DEBUG=WARN\n", etc: "NCCL_IB_HCA=mlx5\n", forced: -1,
			known: true, tos: 0, layer: model.LayerDefault, origin: "nccl.conf"},
		{name: "forced traffic_class beats the environment", env: "HOME=/h\nNCCL_IB_TC=26\n", home: none, etc: none, forced: 106,
			known: true, tos: 106, layer: model.LayerForced, origin: "traffic_class:1"},
		{name: "/etc not collected and nothing set: unknown", env: none, home: "NCCL_DEBUG=WARN\n", etc: none, forced: -1,
			known: false},
		{name: "/etc not collected, home sets it", env: none, home: "NCCL_IB_TC=104\n", etc: none, forced: -1,
			known: true, tos: 104, layer: model.LayerHome, origin: "home-nccl.conf:1", unknown: []string{"the job environment"}},
		{name: "NCCL_CONF_FILE elsewhere: its file decides unseen", env: "HOME=/h\nNCCL_CONF_FILE=/opt/nccl.conf\n", home: "NCCL_IB_TC=104\n", etc: "NCCL_IB_TC=26\n", forced: -1,
			known: true, tos: 26, layer: model.LayerEtc, origin: "nccl.conf:1", unknown: []string{"the file NCCL_CONF_FILE names (/opt/nccl.conf)"},
			note: "NCCL_CONF_FILE=/opt/nccl.conf: NCCL reads that file instead of ~/.nccl.conf, and it was not collected; NCCL does not read home-nccl.conf"},
		{name: "NCCL_CONF_FILE is ~/.nccl.conf", env: "HOME=/h\nNCCL_CONF_FILE=/h/.nccl.conf\n", home: "NCCL_IB_TC=104\n", etc: "NCCL_IB_TC=26\n", forced: -1,
			known: true, tos: 104, layer: model.LayerHome, origin: "home-nccl.conf:1"},
		{name: "empty NCCL_CONF_FILE falls back to ~/.nccl.conf", env: "HOME=/h\nNCCL_CONF_FILE=\n", home: "NCCL_IB_TC=104\n", etc: none, forced: -1,
			known: true, tos: 104, layer: model.LayerHome, origin: "home-nccl.conf:1"},
		{name: "no HOME: no user file", env: "PATH=/bin\n", home: "NCCL_IB_TC=104\n", etc: "NCCL_IB_TC=106\n", forced: -1,
			known: true, tos: 106, layer: model.LayerEtc, origin: "nccl.conf:1", note: "no HOME"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hc := &collectors.HostCapture{Name: "gpu01", NICs: []*collectors.NICCapture{{
				Netdev: "eth0", IBDev: "mlx5_0", Port: 1, Qos: qos(t, mlnxQosDSCP),
				Sysfs: &hostfiles.Sysfs{TrafficClass: &hostfiles.TrafficClass{File: "traffic_class", Global: tc.forced}},
			}}}
			if tc.env != none {
				hc.NCCLEnv = ncclEnv(t, tc.env)
			}
			if tc.home != none {
				c, err := hostfiles.ParseNCCLConf("home-nccl.conf", []byte(tc.home))
				if err != nil {
					t.Fatal(err)
				}
				hc.NCCLHome = c
			}
			if tc.etc != none {
				hc.NCCL = nccl(t, tc.etc)
			}
			h := Host(hc)
			got := h.NICs[0].ToS
			if got.Known != tc.known {
				t.Fatalf("ToS %+v, want known %v", got, tc.known)
			}
			if tc.known && (got.V != tc.tos || got.Layer != tc.layer || got.Origin.Pos().String() != tc.origin) {
				t.Errorf("ToS %d via layer %q at %q, want %d via %q at %q", got.V, got.Layer, got.Origin.Pos(), tc.tos, tc.layer, tc.origin)
			}
			if tc.layer != model.LayerForced && !slices.Equal(h.NCCLUnknown, tc.unknown) {
				t.Errorf("NCCLUnknown = %q, want %q", h.NCCLUnknown, tc.unknown)
			}
			var notes []string
			for _, n := range h.Notes {
				if !strings.HasPrefix(n.Msg, "applications marking RoCE: ") { // TestAppsNote
					notes = append(notes, n.Msg)
				}
			}
			if (tc.note == "") != (len(notes) == 0) || (tc.note != "" && !strings.Contains(strings.Join(notes, "|"), tc.note)) {
				t.Errorf("notes %q, want one with %q", notes, tc.note)
			}
		})
	}
}

// TestNCCLSL: NCCL_IB_SL follows NCCL_IB_TC's precedence (NVIDIA/nccl
// src/misc/param.cc) and defaults to SL 0 (src/transport/net_ib.cc
// NCCL_IB_SL_DEFAULT); the env and conf shapes are the collectors'.
func TestNCCLSL(t *testing.T) {
	const none = "\x00absent"
	for _, tc := range []struct {
		name          string
		env, etc      string
		known         bool
		sl            int
		layer, origin string
	}{
		{name: "/etc sets it", env: none, etc: "NCCL_IB_TC=106\nNCCL_IB_SL=3\n", known: true, sl: 3, layer: model.LayerEtc, origin: "nccl.conf:2"},
		{name: "environment beats /etc", env: "HOME=/h\nNCCL_IB_SL=5\n", etc: "NCCL_IB_SL=3\n", known: true, sl: 5, layer: model.LayerEnv, origin: "nccl-env.txt:2"},
		{name: "empty in the environment: the default, and /etc is not read", env: "HOME=/h\nNCCL_IB_SL=\n", etc: "NCCL_IB_SL=3\n", known: true, sl: 0, layer: model.LayerEnv, origin: "nccl-env.txt:2"},
		{name: "nothing sets it: SL 0", env: none, etc: "NCCL_IB_TC=106\n", known: true, sl: 0, layer: model.LayerDefault, origin: "nccl.conf"},
		{name: "octal as strtoll reads it", env: none, etc: "NCCL_IB_SL=011\n", known: true, sl: 9, layer: model.LayerEtc, origin: "nccl.conf:1"},
		{name: "/etc not collected: unknown", env: none, etc: none},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hc := &collectors.HostCapture{Name: "gpu01"}
			if tc.env != none {
				hc.NCCLEnv = ncclEnv(t, tc.env)
			}
			if tc.etc != none {
				hc.NCCL = nccl(t, tc.etc)
			}
			h := Host(hc)
			got := h.NCCLSL
			if got.Known != tc.known || tc.known && (got.V != tc.sl || h.NCCLSLLayer != tc.layer || got.Origin.Pos().String() != tc.origin) {
				t.Errorf("SL %+v via %q, want known %v, %d via %q at %q", got, h.NCCLSLLayer, tc.known, tc.sl, tc.layer, tc.origin)
			}
		})
	}
}

// NCCL_IB_GID_INDEX and NCCL_IB_ROCE_VERSION_NUM come through the layers
// NCCL_IB_TC does, read with the same strtoll, with their own defaults
// (NVIDIA/nccl src/transport/net_ib/connect.cc: IB_GID_INDEX -1,
// IB_ROCE_VERSION_NUM 2). Unlike NCCL_IB_TC, an uncollected /etc/nccl.conf
// leaves the default in force, named among the layers that may override it.
func TestNCCLGIDParams(t *testing.T) {
	conf := func(file, src string) *hostfiles.NCCLConf {
		c, err := hostfiles.ParseNCCLConf(file, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for _, tc := range []struct {
		name          string
		in            collectors.HostCapture
		gid, ver      int
		layer, origin string
		unknown       []string
	}{
		{"/etc sets the index", collectors.HostCapture{NCCL: conf("nccl.conf", "NCCL_IB_GID_INDEX=3\n")},
			3, 2, model.LayerEtc, "nccl.conf:1", []string{"the job environment", "~/.nccl.conf"}},
		{"octal, as strtoll reads it", collectors.HostCapture{NCCL: conf("nccl.conf", "NCCL_IB_GID_INDEX=010\n")},
			8, 2, model.LayerEtc, "nccl.conf:1", []string{"the job environment", "~/.nccl.conf"}},
		{"the environment beats /etc", collectors.HostCapture{NCCLEnv: ncclEnv(t, "HOME=/h\nNCCL_IB_GID_INDEX=1\nNCCL_IB_ROCE_VERSION_NUM=1\n"),
			NCCL: conf("nccl.conf", "NCCL_IB_GID_INDEX=3\n")}, 1, 1, model.LayerEnv, "nccl-env.txt:2", nil},
		{"empty keeps the default", collectors.HostCapture{NCCL: conf("nccl.conf", "NCCL_IB_GID_INDEX=\n")},
			-1, 2, model.LayerEtc, "nccl.conf:1", []string{"the job environment", "~/.nccl.conf"}},
		{"nothing collected: NCCL's defaults", collectors.HostCapture{},
			-1, 2, model.LayerDefault, "", []string{"the job environment", "~/.nccl.conf", "/etc/nccl.conf"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := Host(&tc.in)
			g := h.NCCLGIDIndex
			if !g.Known || g.V != tc.gid || g.Layer != tc.layer || g.Origin.Pos().String() != tc.origin || !slices.Equal(g.Unknown, tc.unknown) {
				t.Errorf("NCCL_IB_GID_INDEX = %+v, want %d from %s at %q, unknown %v", g, tc.gid, tc.layer, tc.origin, tc.unknown)
			}
			if v := h.NCCLRoCEVersion; !v.Known || v.V != tc.ver {
				t.Errorf("NCCL_IB_ROCE_VERSION_NUM = %+v, want %d", v, tc.ver)
			}
		})
	}
}

// Hosts alike name the same uncollected layers, in one list they share
// (the model only reads it), for NCCL_IB_TC and the parameters alike.
func TestUncollectedLayersShared(t *testing.T) {
	build := func() *model.Host {
		return Host(&collectors.HostCapture{Name: "gpu01", NCCL: nccl(t, "NCCL_IB_TC=106\n")})
	}
	a, b := build(), build()
	want := []string{"the job environment", "~/.nccl.conf"}
	if !slices.Equal(a.NCCLUnknown, want) || !slices.Equal(a.NCCLGIDIndex.Unknown, want) {
		t.Fatalf("NCCL_IB_TC's uncollected layers %q, NCCL_IB_GID_INDEX's %q; want %q", a.NCCLUnknown, a.NCCLGIDIndex.Unknown, want)
	}
	if &a.NCCLUnknown[0] != &b.NCCLUnknown[0] || &a.NCCLUnknown[0] != &a.NCCLGIDIndex.Unknown[0] {
		t.Error("equal lists of uncollected layers are not one list")
	}
}
