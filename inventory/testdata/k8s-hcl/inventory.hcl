# Hosts mapped to Kubernetes nodes (k8s_node, k8s_labels): a fuzz seed.
fabric = "k8s"
host "gpu01" {
  address    = "198.51.100.11"
  k8s_node   = "node-gpu01"
  k8s_labels = { "nvidia.com/gpu.present" = "true", pool = "train" }
}
