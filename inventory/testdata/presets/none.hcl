fabric = "lab"
