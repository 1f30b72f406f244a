package k8s

import (
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

func fourPartitions() *Spec {
	return &Spec{
		Name: "tpcc-w100-t256", Namespace: "bench", Image: "registry.example/benchpress:v1", Partitions: 4,
		Args:       []string{"tpcc", "run", "--target", "mysql://bench@db-proxy:3307/tpcc", "--warehouses", "100", "--terminals", "256", "--warmup", "30s", "--duration", "5m"},
		SecretName: "tpcc-db", SecretKey: "password", CPU: "2", Memory: "1Gi", CPULimit: "2", MemoryLimit: "2Gi",
	}
}

// TestJobDecodesStrictly: the 4-partition manifest decodes into the API's
// own batch/v1 Job and core/v1 types with unknown fields rejected, and
// says what the procedure needs.
func TestJobDecodesStrictly(t *testing.T) {
	for _, aa := range []string{"required", "preferred"} {
		s := fourPartitions()
		s.AntiAffinity = aa
		b, err := s.YAML()
		if err != nil {
			t.Fatal(err)
		}
		var job batchv1.Job
		if err := yaml.UnmarshalStrict(b, &job); err != nil {
			t.Fatalf("strict decode into batch/v1 Job: %v\n%s", err, b)
		}
		var tmpl corev1.PodTemplateSpec
		if err := yaml.UnmarshalStrict(mustSub(t, b, "template"), &tmpl); err != nil {
			t.Fatalf("strict decode into core/v1 PodTemplateSpec: %v", err)
		}
		if job.APIVersion != "batch/v1" || job.Kind != "Job" || job.Name != s.Name || job.Namespace != "bench" {
			t.Errorf("type/meta %+v %+v", job.TypeMeta, job.ObjectMeta)
		}
		sp := job.Spec
		if sp.CompletionMode == nil || *sp.CompletionMode != batchv1.IndexedCompletion || *sp.Completions != 4 || *sp.Parallelism != 4 || *sp.BackoffLimit != 0 {
			t.Errorf("job spec %+v", sp)
		}
		pod := sp.Template.Spec
		if pod.RestartPolicy != corev1.RestartPolicyNever || len(pod.Containers) != 1 {
			t.Fatalf("pod spec %+v", pod)
		}
		c := pod.Containers[0]
		args := strings.Join(c.Args, " ")
		for _, want := range []string{"--partition=$(JOB_COMPLETION_INDEX)/4", "--run-id=$(BENCHPRESS_RUN_ID)", "--json=-", "--password-env=BENCHPRESS_PASSWORD", "--terminals 256"} {
			if !strings.Contains(args, want) {
				t.Errorf("args %q lack %q", args, want)
			}
		}
		env := map[string]corev1.EnvVar{}
		for _, e := range c.Env {
			env[e.Name] = e
		}
		if e := env["BENCHPRESS_PASSWORD"]; e.Value != "" || e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil || e.ValueFrom.SecretKeyRef.Name != "tpcc-db" {
			t.Errorf("password env %+v: want a Secret reference, never a value", e)
		}
		if e := env["JOB_COMPLETION_INDEX"]; e.ValueFrom == nil || e.ValueFrom.FieldRef == nil || !strings.Contains(e.ValueFrom.FieldRef.FieldPath, "job-completion-index") {
			t.Errorf("completion index env %+v", e)
		}
		if q := c.Resources.Requests[corev1.ResourceCPU]; q.String() != "2" {
			t.Errorf("cpu request %s", q.String())
		}
		if q := c.Resources.Limits[corev1.ResourceMemory]; q.String() != "2Gi" {
			t.Errorf("memory limit %s", q.String())
		}
		anti := pod.Affinity.PodAntiAffinity
		var term corev1.PodAffinityTerm
		if aa == "required" && len(anti.RequiredDuringSchedulingIgnoredDuringExecution) == 1 {
			term = anti.RequiredDuringSchedulingIgnoredDuringExecution[0]
		} else if aa == "preferred" && len(anti.PreferredDuringSchedulingIgnoredDuringExecution) == 1 {
			term = anti.PreferredDuringSchedulingIgnoredDuringExecution[0].PodAffinityTerm
		}
		if term.TopologyKey != "kubernetes.io/hostname" || term.LabelSelector.MatchLabels[labelRun] != s.Name ||
			sp.Template.Labels[labelRun] != s.Name {
			t.Errorf("%s anti-affinity %+v does not keep partitions on different nodes", aa, anti)
		}
		if !strings.Contains(string(b), "benchpress merge tpcc-w100-t256.json tpcc-w100-t256.log") {
			t.Errorf("merge step missing:\n%s", b)
		}
	}
}

// mustSub re-encodes one nested field (spec.template) as its own document.
func mustSub(t *testing.T, b []byte, key string) []byte {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	out, err := yaml.Marshal(m["spec"].(map[string]any)[key])
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStrictDecodingCatchesDrift: the strict decoder does reject a field the
// API does not have (so the test above can fail).
func TestStrictDecodingCatchesDrift(t *testing.T) {
	b, err := fourPartitions().YAML()
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(b), "completionMode:", "completionMod:", 1)
	if err := yaml.UnmarshalStrict([]byte(bad), &batchv1.Job{}); err == nil {
		t.Fatal("an unknown field decoded")
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name string
		edit func(*Spec)
		want string
	}{
		{"inline password", func(s *Spec) { s.Args[3] = "mysql://bench:secret@db:3306/tpcc" }, "Secret"},
		{"inline password with '/'", func(s *Spec) { s.Args[3] = "mysql://bench:a/b+c=@db:3306/tpcc" }, "Secret"},
		{"password query parameter", func(s *Spec) { s.Args[3] = "postgres://bench@db/tpcc?password=x" }, "Secret"},
		{"password property", func(s *Spec) { s.Args = append(s.Args, "-p", "db.passwd=x") }, "Secret"},
		{"partition given", func(s *Spec) { s.Args = append(s.Args, "--partition=0/4") }, "--partition is set by the Job"},
		{"json given", func(s *Spec) { s.Args = append(s.Args, "--json", "x.json") }, "--json is set by the Job"},
		{"bad name", func(s *Spec) { s.Name = "TPCC_run" }, "DNS label"},
		{"bad quantity", func(s *Spec) { s.Memory = "1 GB" }, "--memory"},
		{"no image", func(s *Spec) { s.Image = "" }, "--image"},
		{"no command", func(s *Spec) { s.Args = nil }, "run command is missing"},
		{"bad anti-affinity", func(s *Spec) { s.AntiAffinity = "soft" }, "anti-affinity"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := fourPartitions()
			c.edit(s)
			_, err := s.YAML()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}

// The collect recipe after the manifest waits for the Job to complete or
// fail: a Job whose pod failed (backoffLimit 0) never completes, and
// `kubectl wait --for=condition=complete` would hang for its timeout.
func TestYAMLWaitEndsOnFailure(t *testing.T) {
	b, err := fourPartitions().YAML()
	if err != nil {
		t.Fatal(err)
	}
	y := string(b)
	if strings.Contains(y, "--for=condition=complete") || !strings.Contains(y, "grep -qE 'Complete|Failed'") {
		t.Fatalf("the collect recipe does not stop on a failed Job:\n%s", y[strings.Index(y, "# Then"):])
	}
}

// A run-command argument holds a password when a URL's user-info has one
// (whatever its characters), a parameter is named for one, or a property
// is; parameters that only mention one in their name do not.
func TestHoldsPassword(t *testing.T) {
	for arg, want := range map[string]bool{
		"mysql://bench:pw@db:3306/tpcc":            true,
		"mysql://bench:a/b c@db:3306/tpcc":         true,
		"postgres://bench@db/tpcc?password=x":      true,
		"postgres://bench@db/tpcc?sslmode=require": false,
		"mysql://bench@db:3306/tpcc?allowCleartextPasswords=true&allowNativePasswords=true&serverPubKey=k&sslkey=/k.pem": false,
		"postgres://bench@db/tpcc?passfile=/p": false,
		"db.passwd=x":                          true,
		"mysql.password=x":                     true,
		"--password-env=BENCHPRESS_PASSWORD":   false,
		"recordcount=1000":                     false,
		"mysql://bench@db:3306/tpcc":           false,
	} {
		if got := holdsPassword(arg); got != want {
			t.Errorf("holdsPassword(%q) = %v, want %v", arg, got, want)
		}
	}
}
