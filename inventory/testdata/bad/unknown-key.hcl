fabric = "pod-a"
policy {
  roce {
    dscpp = 26
  }
}
switch "leaf01" {
  adress = "192.0.2.11"
}
hots "x" {}
