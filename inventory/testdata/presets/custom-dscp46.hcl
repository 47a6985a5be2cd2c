fabric = "lab"
policy {
  preset = "custom-dscp46"
}
