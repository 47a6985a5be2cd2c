package inventory

import (
	"strings"
	"testing"
	"time"
)

const gnmiYAML = `fabric: lab
gnmi: {port: 9339, tls: true, ca_file: ca.pem, skip_verify: false, timeout: 30s}
ssh:
  switches: {username: cumulus, password_env: SW_PW}
switches:
  - name: leaf01
    gnmi_port: 50051
  - name: leaf02
`

const gnmiHCL = `fabric = "lab"
gnmi {
  port        = 9339
  tls         = true
  ca_file     = "ca.pem"
  skip_verify = false
  timeout     = "30s"
}
ssh {
  switches {
    username     = "cumulus"
    password_env = "SW_PW"
  }
}
switch "leaf01" {
  gnmi_port = 50051
}
switch "leaf02" {}
`

func TestLoadGNMI(t *testing.T) {
	want := GNMI{Port: 9339, TLS: true, CAFile: "ca.pem", Timeout: 30 * time.Second}
	for name, text := range map[string]string{"inventory.yaml": gnmiYAML, "inventory.hcl": gnmiHCL} {
		t.Run(name, func(t *testing.T) {
			inv, err := Parse(name, []byte(text))
			if err != nil {
				t.Fatal(err)
			}
			if inv.GNMI != want {
				t.Errorf("gnmi = %+v, want %+v", inv.GNMI, want)
			}
			if p := inv.GNMIPort(inv.Switches[0]); p != 50051 {
				t.Errorf("leaf01 gNMI port %d, want its gnmi_port 50051", p)
			}
			if p := inv.GNMIPort(inv.Switches[1]); p != 9339 {
				t.Errorf("leaf02 gNMI port %d, want gnmi.port 9339", p)
			}
			// gNMI logs in as the switch does over SSH.
			if c := inv.SwitchCredentials(inv.Switches[1]); c.Username != "cumulus" || c.PasswordEnv != "SW_PW" {
				t.Errorf("credentials %+v", c)
			}
			if got := inv.GNMICAPath("fabrics/lab"); got != "fabrics/lab/ca.pem" {
				t.Errorf("GNMICAPath = %q", got)
			}
		})
	}
}

func TestGNMIDefaults(t *testing.T) {
	inv, err := Parse("inventory.yaml", []byte("fabric: lab\nswitches:\n  - name: leaf01\n"))
	if err != nil {
		t.Fatal(err)
	}
	if inv.GNMI != (GNMI{}) || inv.GNMIPort(inv.Switches[0]) != DefaultGNMIPort || inv.GNMICAPath("x") != "" {
		t.Errorf("no gnmi section: %+v, port %d", inv.GNMI, inv.GNMIPort(inv.Switches[0]))
	}
	for _, ca := range []string{"/etc/ca.pem", "~/ca.pem"} {
		inv.GNMI.CAFile = ca
		if got := inv.GNMICAPath("fabrics/lab"); got != ca {
			t.Errorf("GNMICAPath(%q) = %q", ca, got)
		}
	}
}

// TestGNMIErrors: every rule of buildGNMI and the strict decoders, each
// message on the line of the offending key.
func TestGNMIErrors(t *testing.T) {
	for _, tc := range []struct {
		name, file, text string
		want             []string
	}{
		{"range and duration", "inventory.yaml",
			"fabric: lab\ngnmi:\n  port: 0\n  timeout: 30\nswitches:\n  - name: leaf01\n    gnmi_port: 70000\n",
			[]string{
				`:3: gnmi.port 0 out of range 1..65535`,
				`:4: gnmi.timeout "30" is not a duration (write e.g. 30s or 1m30s)`,
				`:7: switch "leaf01": gnmi_port 70000 out of range 1..65535`,
			}},
		{"tls options without tls", "inventory.yaml",
			"fabric: lab\ngnmi:\n  ca_file: ca.pem\n  skip_verify: true\n  timeout: 2h\n",
			[]string{
				`:3: gnmi.ca_file needs tls: true`,
				`:4: gnmi.skip_verify needs tls: true`,
				`:5: gnmi.timeout 2h out of range (above 0, at most 1h0m0s)`,
			}},
		{"ca_file and skip_verify", "inventory.yaml",
			"fabric: lab\ngnmi: {tls: true, ca_file: -x, skip_verify: true}\n",
			[]string{
				`:2: gnmi.ca_file "-x" must not start with '-' (write ./-x)`,
				`:2: gnmi.skip_verify: true makes ca_file useless: set one or the other`,
			}},
		{"unknown keys", "inventory.yaml",
			"fabric: lab\ngnmi:\n  tsl: true\nhosts:\n  - name: gpu01\n    gnmi_port: 1\n",
			[]string{`:3: unknown key "tsl" in gnmi`, `:6: unknown key "gnmi_port" in hosts[0]`}},
		{"hcl", "inventory.hcl",
			"fabric = \"lab\"\ngnmi {\n  port = \"x\"\n  timeout = \"-1s\"\n}\nhost \"gpu01\" {\n  gnmi_port = 1\n}\n",
			[]string{
				`:3: gnmi.port: want an integer, got string "x"`,
				`:4: gnmi.timeout -1s out of range (above 0, at most 1h0m0s)`,
				`:7: Unsupported argument: An argument named "gnmi_port" is not expected here.`,
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inv, err := Parse(tc.file, []byte(tc.text))
			if err == nil {
				t.Fatalf("accepted: %+v", inv)
			}
			got := strings.Split(err.Error(), "\n")
			if len(got) != len(tc.want) {
				t.Errorf("got %d errors, want %d:\n%s", len(got), len(tc.want), err)
			}
			for i, w := range tc.want {
				if i < len(got) && got[i] != tc.file+w {
					t.Errorf("error %d:\n got %s\nwant %s", i, got[i], tc.file+w)
				}
			}
		})
	}
}
