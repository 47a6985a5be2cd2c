fabric = "lab"
policy {
  preset = "spectrum-x-ra2.0"
}
