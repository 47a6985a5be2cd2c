fabric = "pod-a"
policy {
  roce {
    dscp     = [26, "x", true]
    priority = "high"
  }
  ecmp {
    adaptive_routing = "yes"
  }
}
switch "leaf01" {
  ports = "swp1"
}
host "gpu01" {
  nics = [1, ["a"]]
}
