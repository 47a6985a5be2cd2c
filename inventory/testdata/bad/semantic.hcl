fabric = "pod a"
policy {
  preset = "nvidia"
  roce {
    dscp          = [26, 64]
    priority      = 8
    traffic_class = -1
    mode          = "lossles"
  }
  cnp {
    dscp     = 26
    priority = 9
  }
  trust = "l3"
  mtu {
    host   = 67
    switch = 65536
  }
  ecmp {
    hash_fields = ["source-ip", "src-port"]
  }
}
switch "leaf01" { role = "tor" }
switch "spine01" {}
switch "" { address = "192.0.2.1" }
switch "../etc" { role = "spine" }
switch "leaf02" {
  ports   = ["swp1", "swp2;reboot"]
  address = "-oProxyCommand=x"
}
host "leaf01" {}
host "gpu01" {
  nics = [
    "ens1f0np0",
    "this-name-is-too-long",
  ]
}
