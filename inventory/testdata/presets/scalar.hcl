fabric = "lab"
policy {
  roce { dscp = 30 }
  cnp { dscp = 46 }
}
