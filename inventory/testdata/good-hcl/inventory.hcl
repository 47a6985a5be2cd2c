# Pod A: two leaves, one spine, two GPU servers.
fabric = "pod-a"
policy {
  preset = "cumulus-default"
  roce {
    dscp = [26]
    priority = 3
    traffic_class = 3
    mode = "lossless"
  }
  cnp {
    dscp     = 48
    priority = 6
  }
  trust = "dscp"
  mtu {
    host   = 4200
    switch = 9216
  }
  ecmp {
    hash_fields      = ["source-ip", "destination-ip", "source-port", "destination-port", "ip-protocol"]
    adaptive_routing = false
  }
}
switch "leaf01" {
  role    = "leaf"
  address = "192.0.2.11"
  ports   = ["swp1-32"]
}
switch "leaf02" { address = "192.0.2.12" }
switch "spine01" {
  role    = "spine"
  address = "spine01.example.net"
}
host "gpu01" {
  address = "192.0.2.101"
  nics    = ["ens1f0np0", "ens1f1np1"]
}
host "gpu02" { address = "2001:db8::102" }
