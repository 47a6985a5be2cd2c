fabric = "lab"
policy {
  preset = "spectrum-x"
}
