fabric = "pod-a"
policy {
  roce {
    min_bandwidth = 101
  }
}
