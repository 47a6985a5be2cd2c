package k8s

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/source"
)

func parseFile(t testing.TB, name string) (*Manifests, error) {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	m := &Manifests{}
	return m, m.Parse(name, b)
}

// The operator README's example template is the expected parse.
func TestNicTemplateReadmeExample(t *testing.T) {
	m, err := parseFile(t, "nictemplate-readme.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Templates) != 1 {
		t.Fatalf("templates = %d", len(m.Templates))
	}
	tm := m.Templates[0]
	if tm.ID() != "NicConfigurationTemplate/network-operator/connectx6-config" || tm.Pos.Line != 5 {
		t.Errorf("object %s at %d", tm.ID(), tm.Pos.Line)
	}
	if !reflect.DeepEqual(tm.NodeSelector, map[string]string{"feature.node.kubernetes.io/network-sriov.capable": "true"}) {
		t.Errorf("nodeSelector %v", tm.NodeSelector)
	}
	if tm.NicType.V != "101b" || tm.LinkType.V != "Ethernet" || tm.ResetToDefault {
		t.Errorf("nicType %q linkType %q reset %v", tm.NicType.V, tm.LinkType.V, tm.ResetToDefault)
	}
	r := tm.RoCE
	if r == nil || !r.Enabled || r.RoceMode.Set || r.QoS == nil {
		t.Fatalf("roceOptimized %+v", r)
	}
	q := r.QoS
	if q.Trust.V != "dscp" || q.PFC.V != "0,0,0,1,0,0,0,0" || !q.ToS.Set || q.ToS.V != 0 || q.ToS.Pos.Line != 34 {
		t.Errorf("qos %+v", q)
	}
}

func TestWorkloadKinds(t *testing.T) {
	m, err := parseFile(t, "workloads.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range m.Workloads {
		for _, p := range w.Pods {
			var cs []string
			for _, c := range p.Containers {
				n := c.Name
				if c.Init {
					n += "(init)"
				}
				cs = append(cs, n)
			}
			got = append(got, w.ID()+" "+p.Role+" "+p.Path+" "+strings.Join(cs, ","))
		}
	}
	want := []string{
		"PyTorchJob/ml/train Master /spec/pytorchReplicaSpecs/Master/template/spec pytorch",
		"PyTorchJob/ml/train Worker /spec/pytorchReplicaSpecs/Worker/template/spec init(init),pytorch",
		"MPIJob/default/nccl-tests Launcher /spec/mpiReplicaSpecs/Launcher/template/spec launcher",
		"MPIJob/default/nccl-tests Worker /spec/mpiReplicaSpecs/Worker/template/spec worker",
		"Job/default/vc worker /spec/tasks/0/template/spec w",
		"JobSet/default/js workers /spec/replicatedJobs/0/template/spec/template/spec w",
		"LeaderWorkerSet/default/lws leaderTemplate /spec/leaderWorkerTemplate/leaderTemplate/spec leader",
		"LeaderWorkerSet/default/lws workerTemplate /spec/leaderWorkerTemplate/workerTemplate/spec worker",
		"Deployment/default/web  /spec/template/spec web",
		"CronJob/default/cron  /spec/jobTemplate/spec/template/spec c",
		"Pod/default/p  /spec c",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pods:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if k := m.IgnoredKinds(); !reflect.DeepEqual(k, []string{"Service (1)"}) {
		t.Errorf("ignored %v", k)
	}
	if p := m.Workloads[0].Pods[0]; p.NodeSelector["pool"] != "gpu" {
		t.Errorf("nodeSelector %v", p.NodeSelector)
	}
	if p := m.Workloads[4].Pods[1]; p.Affinity.Line != 122 {
		t.Errorf("affinity at %v", p.Affinity)
	}
	if c := m.Workloads[1].Pods[1].Containers[0]; !reflect.DeepEqual(c.Resources, []string{"rdma/rdma_shared_device_a"}) {
		t.Errorf("resources %v", c.Resources)
	}
}

// Env applies envFrom, then env; a configMapKeyRef points at the ConfigMap.
func TestEnv(t *testing.T) {
	m, err := parseFile(t, "workloads.yaml")
	if err != nil {
		t.Fatal(err)
	}
	master := m.Workloads[0].Pods[0].Containers[0]
	env, missing := m.Env("ml", master)
	if v := env["NCCL_IB_TC"]; v.V != "106" || v.Via != "ConfigMap nccl-env" || v.Pos.Line != 14 || len(missing) != 0 {
		t.Errorf("master NCCL_IB_TC %+v, missing %v", v, missing)
	}
	worker := m.Workloads[0].Pods[1].Containers[1]
	env, _ = m.Env("ml", worker)
	if v := env["NCCL_IB_TC"]; v.V != "106" || v.Pos.Line != 14 {
		t.Errorf("worker NCCL_IB_TC %+v", v)
	}
	if v := env["UCX_IB_TRAFFIC_CLASS"]; v.V != "auto" || v.Via != "env" || v.Pos.Line != 52 {
		t.Errorf("UCX %+v", v)
	}
	// Another namespace has no such ConfigMap.
	env, missing = m.Env("other", master)
	if _, ok := env["NCCL_IB_TC"]; ok || len(missing) != 1 {
		t.Errorf("other namespace: %v %v", env, missing)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		file, data string
		line       int
		msg        string
	}{
		{"bad.yaml", "", 15, "env: want a list"},
		{"x.yaml", "kind: Pod\n  bad: [\n", 2, "not YAML"},
		{"x.yaml", "---\n- a\n", 2, "must be a mapping"},
		{"x.yaml", "apiVersion: v1\nmetadata: {name: x}\n", 1, "without kind"},
		{"x.yaml", "apiVersion: configuration.net.nvidia.com/v1alpha1\nkind: NicConfigurationTemplate\nspec:\n  template:\n    roceOptimized:\n      roceMode: two\n", 6, "want an integer"},
	} {
		var err error
		if tc.data == "" {
			_, err = parseFile(t, tc.file)
		} else {
			err = (&Manifests{}).Parse(tc.file, []byte(tc.data))
		}
		var se *source.Error
		if !errors.As(err, &se) || se.Line != tc.line || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("%q: got %v, want line %d %q", tc.data, err, tc.line, tc.msg)
		}
	}
}
