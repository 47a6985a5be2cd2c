package checks

import (
	"strings"
	"testing"
	"testing/fstest"
)

// nicTemplate is a NicConfigurationTemplate in the shape of
// Mellanox/nic-configuration-operator
// config/samples/configuration.net_v1alpha1_nicconfigurationtemplate.yaml;
// qos is the roceOptimized.qos body (indented 8), "" for none.
func nicTemplate(selector, qos, extra string) string {
	s := `apiVersion: configuration.net.nvidia.com/v1alpha1
kind: NicConfigurationTemplate
metadata:
  name: roce
  namespace: nic-configuration-operator
spec:
  nodeSelector:
` + selector + `
  nicSelector:
    nicType: 101d
  template:
    numVfs: 0
    linkType: Ethernet
` + extra + `
    roceOptimized:
      enabled: true
`
	if qos != "" {
		s += "      qos:\n" + qos
	}
	return s
}

const (
	anySelector = "    feature.node.kubernetes.io/pci-15b3.present: \"true\""
	gpuSelector = "    pool: gpu"
	goodQoS     = "        trust: dscp\n        pfc: \"0,0,0,1,0,0,0,0\"\n        tos: 106\n"
	rawCNP      = "    rawNvConfig:\n      - {name: CNP_DSCP_P1, value: \"48\"}\n      - {name: CNP_DSCP_P2, value: \"48\"}\n"
	k8sTmplID   = "NicConfigurationTemplate/nic-configuration-operator/roce"
)

// mapNodes maps gpu01 and gpu02 of the clean pod to Kubernetes nodes
// labelled pool=gpu.
func mapNodes() edit {
	return func(t *testing.T, fsys fstest.MapFS) {
		t.Helper()
		for i, h := range []string{"gpu01", "gpu02"} {
			addr := []string{"198.51.100.11", "198.51.100.12"}[i]
			replace("inventory.hcl", `host "`+h+`" { address = "`+addr+`" }`,
				`host "`+h+`" {
  address    = "`+addr+`"
  k8s_node   = "node-`+h+`"
  k8s_labels = { pool = "gpu" }
}`)(t, fsys)
		}
	}
}

var _ = register(k8sNicTemplate, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "tos 106, trust dscp", edits: []edit{write("k8s/nic.yaml", nicTemplate(anySelector, goodQoS, rawCNP))}},
		{name: "default ToS 0", edits: []edit{write("k8s/nic.yaml", nicTemplate(anySelector, "", ""))},
			want: []string{"error " + k8sTmplID}, msg: "RoCE leaves with ToS 0 (roceOptimized.qos.tos unset or 0"},
		{name: "DSCP as ToS on mapped hosts", edits: []edit{mapNodes(), write("k8s/nic.yaml", nicTemplate(gpuSelector, strings.Replace(goodQoS, "106", "26", 1), ""))},
			want: []string{"error gpu01", "error gpu02"}, msg: "is the DSCP, not the ToS"},
		{name: "trust pcp and PFC moved", edits: []edit{write("k8s/nic.yaml", nicTemplate(anySelector, "        trust: pcp\n        pfc: \"0,0,0,0,1,0,0,0\"\n        tos: 106\n", ""))},
			want: []string{"error " + k8sTmplID, "error " + k8sTmplID}, msg: "PFC is on priority 4 instead of 3"},
		{name: "roceMode 1", edits: []edit{write("k8s/nic.yaml", nicTemplate(anySelector, goodQoS, "")+"      roceMode: 1\n")},
			want: []string{"error " + k8sTmplID}, msg: "RoCE v1"},
		{name: "disabled roceOptimized is not judged", edits: []edit{write("k8s/nic.yaml", strings.Replace(nicTemplate(anySelector, "", ""), "enabled: true", "enabled: false", 1))}},
	}
})

var _ = register(k8sCNPConflict, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "rawNvConfig sets CNP DSCP 48", edits: []edit{write("k8s/nic.yaml", nicTemplate(anySelector, goodQoS, rawCNP))}},
		{name: "operator's CNP DSCP 4", edits: []edit{write("k8s/nic.yaml", nicTemplate(anySelector, goodQoS, ""))},
			want: []string{"error " + k8sTmplID}, msg: "CNPs leave with DSCP 4, not the CNP DSCP 48"},
		{name: "on the mapped hosts", edits: []edit{mapNodes(), write("k8s/nic.yaml", nicTemplate(gpuSelector, goodQoS, ""))},
			want: []string{"error gpu01", "error gpu02"}},
	}
})

// workload is a manifest of kind with one container whose env block is
// env (indented 14), in the shape of the kubeflow/training-operator
// PyTorchJob and kubeflow/mpi-operator MPIJob examples.
func pytorchJob(env string) string {
	return `apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: train
  namespace: ml
spec:
  pytorchReplicaSpecs:
    Worker:
      replicas: 2
      template:
        spec:
          nodeSelector:
            pool: gpu
          containers:
            - name: pytorch
              image: example/train:1
              resources:
                limits:
                  nvidia.com/gpu: 8
` + env
}

const deploymentNoEnv = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: serve
  namespace: ml
spec:
  template:
    spec:
      containers:
        - name: web
          image: nginx
        - name: infer
          image: example/infer
          resources:
            limits:
              rdma/rdma_shared_device_a: 1
`

const ncclConfigMap = `apiVersion: v1
kind: ConfigMap
metadata:
  name: nccl
  namespace: ml
data:
  NCCL_IB_TC: "106"
---
`

var _ = register(k8sWorkloadToS, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "NCCL_IB_TC 106", edits: []edit{write("k8s/job.yaml", pytorchJob("              env:\n                - {name: NCCL_IB_TC, value: \"106\"}\n"))}},
		{name: "from a ConfigMap", edits: []edit{write("k8s/job.yaml", ncclConfigMap+pytorchJob("              envFrom:\n                - configMapRef: {name: nccl}\n"))}},
		{name: "UCX auto", edits: []edit{write("k8s/job.yaml", pytorchJob("              env:\n                - {name: NCCL_IB_TC, value: \"106\"}\n                - {name: UCX_IB_TRAFFIC_CLASS, value: auto}\n"))}},
		{name: "DSCP as ToS", edits: []edit{write("k8s/job.yaml", pytorchJob("              env:\n                - {name: NCCL_IB_TC, value: \"26\"}\n"))},
			want: []string{"error PyTorchJob/ml/train"}, msg: "PyTorchJob ml/train Worker container pytorch: NCCL_IB_TC=26 is the DSCP, not the ToS"},
		{name: "ConfigMap ToS 0 on mapped hosts", edits: []edit{mapNodes(), write("k8s/job.yaml", strings.Replace(ncclConfigMap, "106", "0", 1)+pytorchJob("              envFrom:\n                - configMapRef: {name: nccl}\n"))},
			want: []string{"error gpu01", "error gpu02"}, msg: "set in ConfigMap nccl"},
		{name: "unset in an RDMA container", edits: []edit{write("k8s/serve.yaml", deploymentNoEnv)},
			want: []string{"error Deployment/ml/serve"}, msg: "NCCL_IB_TC unset in the manifest"},
		{name: "NVSHMEM not a number", edits: []edit{write("k8s/job.yaml", pytorchJob("              env:\n                - {name: NCCL_IB_TC, value: \"106\"}\n                - {name: NVSHMEM_IB_TRAFFIC_CLASS, value: high}\n"))},
			want: []string{"error PyTorchJob/ml/train"}, msg: "is not a number"},
	}
})
