// Package k8s generates the Kubernetes manifest of a partitioned run: one
// Indexed Job (batch/v1, completionMode Indexed) whose pod with completion
// index I runs `benchpress ... --partition I/N`, all pods of the Job meeting
// at the barrier table in the target database (the Job's uid is the run
// id). Each pod prints its result as one line on stdout (--json -), so
// `kubectl logs` of the Job's pods is what `benchpress merge` reads.
package k8s

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"benchpress/internal/results"
)

// Labels and field paths the manifest relies on.
const (
	labelName = "app.kubernetes.io/name"
	labelRun  = "benchpress.dev/run"
	// The completion index of a pod of an Indexed Job (Kubernetes 1.22+);
	// also injected by the Job controller as JOB_COMPLETION_INDEX (1.24+),
	// set explicitly here so older clusters work too.
	completionIndexPath = "metadata.annotations['batch.kubernetes.io/job-completion-index']"
	// The Job's uid, the same for all its pods and new for every Job
	// (Kubernetes 1.27+; older clusters label pods controller-uid).
	controllerUIDPath = "metadata.labels['batch.kubernetes.io/controller-uid']"
)

// Spec describes the Job to generate.
type Spec struct {
	Name       string // Job name (DNS label)
	Namespace  string // optional
	Image      string // image holding the benchpress binary
	Binary     string // path of the binary in the image (default /benchpress)
	Partitions int    // N: pods, one partition each
	// Args is the benchpress run command of one step without partition
	// flags, e.g. tpcc run --target mysql://bench@db:3306/tpcc --terminals 256.
	Args []string
	// SecretName/SecretKey hold the database password; the pod gets it in
	// PasswordEnv, never inline.
	SecretName, SecretKey, PasswordEnv string
	// Requests (cpu, memory) and optional limits, Kubernetes quantities.
	CPU, Memory, CPULimit, MemoryLimit string
	// AntiAffinity is "required" (default: each partition on its own node,
	// pods stay Pending when nodes are short) or "preferred".
	AntiAffinity    string
	NodeSelector    map[string]string
	ImagePullPolicy string
}

// reserved flags are set by the generator for every pod.
var reserved = []string{"--partition", "--run-id", "--json", "--password-env", "--processes", "--cpuset", "--start-at"}

var (
	dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
	quantity = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?(m|k|M|G|T|Ki|Mi|Gi|Ti)?$`)
)

// Validate returns every problem at once.
func (s *Spec) Validate() error {
	var errs []error
	if len(s.Name) > 52 || !dnsLabel.MatchString(s.Name) {
		errs = append(errs, fmt.Errorf("job name %q: want a DNS label of at most 52 characters (lower case letters, digits, '-')", s.Name))
	}
	if s.Namespace != "" && !dnsLabel.MatchString(s.Namespace) {
		errs = append(errs, fmt.Errorf("namespace %q is not a DNS label", s.Namespace))
	}
	if s.Image == "" {
		errs = append(errs, errors.New("an image holding the benchpress binary is required (--image)"))
	}
	if s.Partitions < 1 {
		errs = append(errs, fmt.Errorf("partitions must be >= 1 (got %d)", s.Partitions))
	}
	if s.SecretName != "" && !dnsLabel.MatchString(s.SecretName) && !strings.Contains(s.SecretName, ".") {
		errs = append(errs, fmt.Errorf("secret name %q is not a valid name", s.SecretName))
	}
	for _, q := range []struct{ flag, v string }{{"--cpu", s.CPU}, {"--memory", s.Memory}, {"--cpu-limit", s.CPULimit}, {"--memory-limit", s.MemoryLimit}} {
		if q.v != "" && !quantity.MatchString(q.v) {
			errs = append(errs, fmt.Errorf("%s %q is not a Kubernetes quantity (e.g. 2, 500m, 1Gi)", q.flag, q.v))
		}
	}
	switch s.AntiAffinity {
	case "", "required", "preferred":
	default:
		errs = append(errs, fmt.Errorf("anti-affinity %q: want required or preferred", s.AntiAffinity))
	}
	if len(s.Args) < 2 {
		errs = append(errs, errors.New("the run command is missing (after --, e.g. -- tpcc run --target ...)"))
	}
	for _, a := range s.Args {
		for _, r := range reserved {
			if a == r || strings.HasPrefix(a, r+"=") {
				errs = append(errs, fmt.Errorf("%s is set by the Job for every pod; leave it out of the run command", r))
			}
		}
		if holdsPassword(a) {
			errs = append(errs, errors.New("the run command holds a password (in a URL or a password property); keep it in a Secret (--secret) instead"))
		}
	}
	return errors.Join(errs...)
}

// holdsPassword tells whether a run-command argument carries a password:
// a URL's user-info or secret query parameter (by the rule the results
// redact with: the user-info ends at the last '@', so a password with '/'
// or a space is found) or a workload property named for one
// (db.passwd=..., -p mysql.password=...).
func holdsPassword(a string) bool {
	if strings.Contains(a, "://") {
		if ui, ok := results.UserInfo(a); ok && strings.Contains(ui, ":") {
			return true
		}
		// A password parameter, by its exact name: allowNativePasswords,
		// allowCleartextPasswords, serverPubKey, sslkey or passfile
		// name no password.
		if _, q, ok := strings.Cut(a, "?"); ok {
			for _, kv := range strings.Split(q, "&") {
				name, v, _ := strings.Cut(kv, "=")
				switch strings.ToLower(name) {
				case "password", "passwd", "pwd", "pass":
					if v != "" {
						return true
					}
				}
			}
		}
		return false
	}
	if strings.HasPrefix(a, "-") {
		return false // a flag's name (--password-env is a reserved flag)
	}
	if name, value, ok := strings.Cut(a, "="); ok && value != "" && !strings.Contains(value, "://") {
		return results.MaskProperty(name, value) != value
	}
	return false
}

// Job builds the Indexed Job.
func (s *Spec) Job() *Job {
	binary := s.Binary
	if binary == "" {
		binary = "/benchpress"
	}
	labels := map[string]string{labelName: "benchpress", labelRun: s.Name}
	args := append(append([]string(nil), s.Args...),
		fmt.Sprintf("--partition=$(JOB_COMPLETION_INDEX)/%d", s.Partitions),
		"--run-id=$(BENCHPRESS_RUN_ID)",
		"--json=-")
	env := []EnvVar{
		{Name: "JOB_COMPLETION_INDEX", ValueFrom: &EnvVarSource{FieldRef: &FieldSelector{FieldPath: completionIndexPath}}},
		{Name: "BENCHPRESS_RUN_ID", ValueFrom: &EnvVarSource{FieldRef: &FieldSelector{FieldPath: controllerUIDPath}}},
	}
	if s.SecretName != "" {
		pe, key := s.PasswordEnv, s.SecretKey
		if pe == "" {
			pe = "BENCHPRESS_PASSWORD"
		}
		if key == "" {
			key = "password"
		}
		env = append(env, EnvVar{Name: pe, ValueFrom: &EnvVarSource{SecretKeyRef: &SecretKeyRef{Name: s.SecretName, Key: key}}})
		args = append(args, "--password-env="+pe)
	}
	res := ResourceRequirements{Requests: quantities(s.CPU, s.Memory), Limits: quantities(s.CPULimit, s.MemoryLimit)}
	term := PodAffinityTerm{LabelSelector: LabelSelector{MatchLabels: map[string]string{labelRun: s.Name}}, TopologyKey: "kubernetes.io/hostname"}
	aff := &Affinity{}
	if s.AntiAffinity == "preferred" {
		aff.PodAntiAffinity.Preferred = []WeightedPodAffinityTerm{{Weight: 100, PodAffinityTerm: term}}
	} else {
		aff.PodAntiAffinity.Required = []PodAffinityTerm{term}
	}
	return &Job{
		APIVersion: "batch/v1", Kind: "Job",
		Metadata: ObjectMeta{Name: s.Name, Namespace: s.Namespace, Labels: labels},
		Spec: JobSpec{
			CompletionMode: "Indexed", Completions: s.Partitions, Parallelism: s.Partitions,
			// A retried pod would join the barrier a second time under the
			// same run id, which the barrier refuses: fail fast instead.
			BackoffLimit: 0,
			Template: PodTemplateSpec{
				Metadata: ObjectMeta{Labels: labels},
				Spec: PodSpec{
					RestartPolicy: "Never", NodeSelector: s.NodeSelector, Affinity: aff,
					Containers: []Container{{
						Name: "benchpress", Image: s.Image, ImagePullPolicy: s.ImagePullPolicy,
						Command: []string{binary}, Args: args, Env: env, Resources: res,
					}},
				},
			},
		},
	}
}

func quantities(cpu, mem string) map[string]string {
	m := map[string]string{}
	if cpu != "" {
		m["cpu"] = cpu
	}
	if mem != "" {
		m["memory"] = mem
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

// YAML renders the Job, followed by the commands that collect and merge
// the partitions' results as comments.
func (s *Spec) YAML() ([]byte, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# benchpress: %d partitions of: %s\n", s.Partitions, strings.Join(s.Args, " "))
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(s.Job()); err != nil {
		return nil, fmt.Errorf("k8s job: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("k8s job: %w", err)
	}
	ns := ""
	if s.Namespace != "" {
		ns = " -n " + s.Namespace
	}
	// Not kubectl wait --for=condition=complete: a Job whose pod failed
	// (backoffLimit 0) never completes, and the wait would last its whole
	// timeout.
	fmt.Fprintf(&b, `# Then, once the Job has completed or failed, collect the %[1]d result lines and merge them:
#   until kubectl%[2]s get job/%[3]s -o jsonpath='{.status.conditions[?(@.status=="True")].type}' | grep -qE 'Complete|Failed'; do sleep 10; done
#   kubectl%[2]s logs -l job-name=%[3]s --tail=-1 --max-log-requests=%[4]d > %[3]s.log
#   benchpress merge %[3]s.json %[3]s.log
`, s.Partitions, ns, s.Name, max(s.Partitions, 5))
	return b.Bytes(), nil
}
