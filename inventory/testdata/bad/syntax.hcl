fabric = "pod-a"
policy {
  roce {
    dscp = [26
  }
