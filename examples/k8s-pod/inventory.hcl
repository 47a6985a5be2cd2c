# The clean pod, with its GPU servers mapped to their Kubernetes nodes (k8s_node, k8s_labels):
# the manifests in k8s/ select them by nodeSelector.
fabric = "k8s-pod"

policy {
  preset = "cumulus-default"

  mtu {
    host   = 4200
    switch = 9216
  }

  # Rail-optimised: NIC 0 of every GPU server on leaf01, NIC 1 on leaf02
  # (NIC order: ibdev2netdev.txt).
  rails {
    groups = [["leaf01"], ["leaf02"]]
  }
}

switch "spine01" {
  role    = "spine"
  address = "192.0.2.1"
}

switch "spine02" {
  role    = "spine"
  address = "192.0.2.2"
}

switch "leaf01" {
  role    = "leaf"
  address = "192.0.2.11"
}

switch "leaf02" {
  role    = "leaf"
  address = "192.0.2.12"
}

host "gpu01" {
  address    = "198.51.100.11"
  k8s_node   = "node-gpu01"
  k8s_labels = { "nvidia.com/gpu.present" = "true", pool = "train" }
}
host "gpu02" {
  address    = "198.51.100.12"
  k8s_node   = "node-gpu02"
  k8s_labels = { "nvidia.com/gpu.present" = "true", pool = "train" }
}
host "gpu03" {
  address    = "198.51.100.13"
  k8s_node   = "node-gpu03"
  k8s_labels = { "nvidia.com/gpu.present" = "true", pool = "serve" }
}
host "gpu04" {
  address    = "198.51.100.14"
  k8s_node   = "node-gpu04"
  k8s_labels = { "nvidia.com/gpu.present" = "true", pool = "serve" }
}
