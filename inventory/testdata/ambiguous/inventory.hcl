fabric = "a"
