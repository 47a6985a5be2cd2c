fabric = "lab"
policy {
  roce {
    host_tsa = "wrr"
  }
}
