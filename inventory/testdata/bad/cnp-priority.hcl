fabric = "pod-a"
policy {
  roce {
    dscp     = 24
    priority = 6
  }
  cnp { dscp = 24 }
}
