package checks

import (
	"testing"
)

var _ = register(packetTrimServicePort, func(t testing.TB) []checkCase {
	base := trimBase(t)
	svc := func(port string) edit {
		return replace(spine01Y, "          service-port: swp65\n", "          service-port: "+port+"\n")
	}
	return []checkCase{
		{name: "clean: no trimming"},
		{name: "service port with nothing on it", edits: base},
		{name: "service port in the RoCE range", edits: plus(base, svc("swp32")),
			want: []string{"error spine01 swp32", "error spine01 swp32"}, msg: "QoS is configured on the packet trimming service port swp32"},
		{name: "the service port the switch names", edits: plus(base, replace(spine01Y, "          service-port: swp65\n", ""),
			write(spine01Trim, trimShow(t, "service-port               swp65", "service-port               swp31"))),
			want: []string{"error spine01 swp31", "error spine01 swp31"}, msg: "QoS is configured on the packet trimming service port swp31"},
		{name: "port not known", edits: plus(base[:3], replace(spine01Y, "          service-port: swp65\n", "")),
			want: []string{"info spine01"}, msg: "not collected"},
		{name: "Spectrum-6", edits: plus(base, svc("swp32"), replace(spine01Y, "model: SN5600", "model: SN6600")),
			want: []string{"info spine01 swp32", "info spine01 swp32"}, msg: "not verified on a Spectrum-6"},
	}
})
