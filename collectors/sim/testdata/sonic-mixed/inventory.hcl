# clean-pod (examples/clean-pod) with one more switch, sonic01, running SONiC:
# a mixed Cumulus + SONiC fabric for the live collector and the simulator.
fabric = "pod-clean"

policy {
  preset = "cumulus-default"

  mtu {
    host   = 4200
    switch = 9216
  }

  # Rail-optimised: NIC 0 of every GPU server on leaf01, NIC 1 on leaf02
  # (NIC order: ibdev2netdev.txt).
  rails {
    groups = [["leaf01"], ["leaf02"]]
  }
}

switch "spine01" {
  role    = "spine"
  address = "192.0.2.1"
}

switch "spine02" {
  role    = "spine"
  address = "192.0.2.2"
}

switch "leaf01" {
  role    = "leaf"
  address = "192.0.2.11"
}

switch "leaf02" {
  role    = "leaf"
  address = "192.0.2.12"
}

switch "sonic01" {
  role    = "leaf"
  address = "192.0.2.21"
  os      = "sonic"
}

host "gpu01" { address = "198.51.100.11" }
host "gpu02" { address = "198.51.100.12" }
host "gpu03" { address = "198.51.100.13" }
host "gpu04" { address = "198.51.100.14" }
