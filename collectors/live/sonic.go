package live

import (
	"bytes"
	"strings"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/inventory"
)

// collectSONiC reads a SONiC switch (inventory os: sonic): its running
// CONFIG_DB as config_db.json, `show platform summary` and lldpd's
// neighbours. No nv command is sent: SONiC has no NVUE.
//
// Every command runs as the login user, and under sudo -n only where the
// switch's credentials say sudo: true. None needs root for SONiC's default
// user, which is in the redis and docker groups (sonic-buildimage
// build_debian.sh: `useradd -G sudo,docker`, `usermod -aG redis`); the
// redis sockets are group redis, mode 0760 (files/build_templates/
// docker_image_ctl.j2), so sonic-cfggen -d and the show CLI can read
// CONFIG_DB and STATE_DB, and docker exec reaches the lldp container.
// `show runningconfiguration all` runs `sudo rvtysh -c "show
// running-config"` itself (sonic-utilities utilities_common/bgp_util.py
// run_bgp_command), which SONiC's sudoers allows every user without a
// password (files/image_config/sudoers/sudoers: READ_ONLY_CMDS holds
// `/usr/bin/rvtysh *`, `ALL ALL=NOPASSWD: READ_ONLY_CMDS`). An account
// outside those groups (a TACACS+ read-only user, say) is not covered by
// this: not verified.
func (r *devRun) collectSONiC() error {
	if err := r.captureConfigDB(); err != nil {
		return err
	}
	if err := r.captureOptional(r.sudo(devcmd.SONiCPlatformSummary), layout.PlatformSummaryFile); err != nil {
		return err
	}
	_, _, err := r.capture(r.sudo(devcmd.SONiCLLDPNeighbors), layout.LLDPFile)
	return err
}

// captureConfigDB saves the configuration as config_db.json from
// `sonic-cfggen -d --print-data`, or, when that prints no JSON object,
// from `show runningconfiguration all`; the manifest records which. A
// pty merges stderr into the output, so a warning sonic-cfggen prints
// before the JSON spoils the direct read, while the show CLI runs the same
// `sonic-cfggen -d --print-data` with stdout alone captured (sonic-utilities
// show/main.py get_config_json_by_namespace) and re-prints it. It cannot
// help when CONFIG_DB itself is unreachable: both then fail, a note says
// so and lint reports the configuration as not collected. The exit status
// is not seen on an interactive shell, so an output counts as failed by
// its text: failureLine's first and last lines (sonic-cfggen prints
// json.dumps(..., indent=4), so those are the braces of a good answer) or
// a first byte that is not '{'.
func (r *devRun) captureConfigDB() error {
	notes := len(r.st.Notes)
	for _, cmd := range []string{devcmd.SONiCConfigDB, devcmd.SONiCRunningConfig} {
		cmd = r.sudo(cmd)
		out, ok, err := r.exec(cmd)
		switch {
		case err != nil:
			return err
		case !ok:
			continue // exec noted why
		}
		switch line := failureLine(out); {
		case line != "":
			r.note("%s not collected: `%s` said %q", layout.ConfigDBFile, cmd, clip(line))
			continue
		case !jsonObject(out) && firstLine(out) == "":
			r.note("%s not collected: `%s` printed nothing", layout.ConfigDBFile, cmd)
			continue
		case !jsonObject(out):
			r.note("%s not collected: `%s` printed no JSON object: %q", layout.ConfigDBFile, cmd, clip(firstLine(out)))
			continue
		}
		// The fallback worked: the first command's failure is not a gap.
		r.st.Notes = r.st.Notes[:notes]
		r.save(r.file(layout.ConfigDBFile), cmd, out)
		return nil
	}
	return nil
}

// jsonObject reports whether out looks like a JSON object: its first
// non-blank byte is '{'. Parsing is lint's job (the configdb reader reports
// a bad file with its line); this only tells the configuration from an
// error message, a traceback or nothing at all.
func jsonObject(out []byte) bool {
	b := bytes.TrimLeft(out, " \t\r\n")
	return len(b) > 0 && b[0] == '{'
}

// hintSONiC gives a switch collected as Cumulus whose shell has no nv at
// all (bash's "nv: command not found" among its notes since index from)
// the likely cause as one more note: live collection takes the switch OS
// from the inventory alone, and a SONiC switch has no NVUE.
func (r *devRun) hintSONiC(from int) {
	for _, n := range r.st.Notes[from:] {
		if strings.Contains(n, "nv: command not found") {
			r.note("%s has no nv command: if it runs SONiC, say os: %s for it in the inventory", r.dev.name, inventory.OSSONiC)
			return
		}
	}
}
