fabric = var.name
policy {}
policy {}
switch {}
switch "leaf01" "leaf02" {}
