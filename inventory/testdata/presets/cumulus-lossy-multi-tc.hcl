fabric = "lab"
policy {
  preset = "cumulus-lossy-multi-tc"
}
