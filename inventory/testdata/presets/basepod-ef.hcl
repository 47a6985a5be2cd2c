fabric = "lab"
policy {
  preset = "basepod-ef"
}
