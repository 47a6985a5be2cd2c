fabric = "lab"
policy {
  preset = "spectrum-x-ra2.0"
  roce {
    dscp          = [26, 24, 26]
    priority      = 4
    traffic_class = 5
    mode          = "lossy"
    min_bandwidth = 40
    host_tsa      = "strict"
  }
  trust = "pcp"
  mtu {
    host = 9000
  }
  ecmp {
    hash_fields      = ["ip-protocol", "source-ip", "source-ip"]
    adaptive_routing = false
  }
  pfc {
    cable_length = 300
  }
}
