fabric = "lab"
ssh {
  known_hosts = ""
  switches {
    username     = "-oProxyCommand=x"
    password_env = "hunter2!"
    port         = 0
    sudo         = false
  }
  hosts {
    username = "root user"
    key_file = "-i"
    port     = 65536
  }
}
switch "leaf01" {
  username     = "admin@evil"
  password_env = "1PW"
  key_file     = ""
  port         = 70000
  sudo         = true
}
host "gpu01" {
  username = "ThisNameIsMuchTooLongForALoginName"
  key_file = "keys/gpu\u0000"
  port     = -1
}
