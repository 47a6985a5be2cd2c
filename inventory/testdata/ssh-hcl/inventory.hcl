# Credential references only: the secrets stay in the environment and in
# key files.
fabric = "lab"
ssh {
  known_hosts = "known_hosts" # optional
  switches {
    username     = "cumulus"
    password_env = "QOSLINT_SWITCH_PASSWORD"
  }
  hosts {
    username = "root"
    key_file = "~/.ssh/id_ed25519"
    agent    = true
    sudo     = true
    port     = 22
  }
}
switch "leaf01" {
  role         = "leaf"
  address      = "127.0.0.1"
  port         = 2201
  username     = "admin"
  password_env = "LEAF01_PW"
}
switch "spine01" {
  role    = "spine"
  address = "127.0.0.1"
}
host "gpu01" {
  address  = "127.0.0.1"
  port     = 2202
  key_file = "keys/gpu01"
  sudo     = false
}
host "gpu02" {
  address  = "127.0.0.1"
  username = "ubuntu"
  agent    = false
}
