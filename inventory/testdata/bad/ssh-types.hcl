fabric = "lab"
ssh {
  known_host = "kh"
  switches = { username = "cumulus" }
  hosts {
    user  = "root"
    port  = "ssh"
    agent = "maybe"
  }
  hosts {}
}
switch "leaf01" {
  port = [22]
  sudo = 1
}
host "gpu01" {
  key_file = ["a", "b"]
}
ssh {}
