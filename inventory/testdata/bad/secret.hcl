fabric = "lab"
ssh {
  token = "tok-A1b2C3d4"
  switches {
    username = "cumulus"
    password = "Hunter2-sw!"
  }
  hosts {
    Sudo_Password = "s3cr3t-hosts"
    passphrase    = { key = "pp-\"quoted\"-9" }
  }
}
switch "leaf01" {
  secret = "sw-secret-77"
  adress = "x"
}
switch "spine01" {
  role = { password = "s3cr3t-hosts" }.password
}
host "gpu01" {
  password = ["hunter-list-1"]
}
