package k8s

// The subset of the Kubernetes batch/v1 Job and core/v1 Pod types the
// generator writes, with their API field names. The tests decode the
// generated YAML strictly into k8s.io/api's own types, so a field name or
// shape that drifts from the API fails there; the binary does not link
// k8s.io/api.

// Job is batch/v1 Job.
type Job struct {
	APIVersion string     `yaml:"apiVersion"`
	Kind       string     `yaml:"kind"`
	Metadata   ObjectMeta `yaml:"metadata"`
	Spec       JobSpec    `yaml:"spec"`
}

// ObjectMeta is metav1.ObjectMeta.
type ObjectMeta struct {
	Name        string            `yaml:"name,omitempty"`
	Namespace   string            `yaml:"namespace,omitempty"`
	Labels      map[string]string `yaml:"labels,omitempty"`
	Annotations map[string]string `yaml:"annotations,omitempty"`
}

// JobSpec is batchv1.JobSpec.
type JobSpec struct {
	CompletionMode string          `yaml:"completionMode"`
	Completions    int             `yaml:"completions"`
	Parallelism    int             `yaml:"parallelism"`
	BackoffLimit   int             `yaml:"backoffLimit"`
	Template       PodTemplateSpec `yaml:"template"`
}

// PodTemplateSpec is corev1.PodTemplateSpec.
type PodTemplateSpec struct {
	Metadata ObjectMeta `yaml:"metadata"`
	Spec     PodSpec    `yaml:"spec"`
}

// PodSpec is corev1.PodSpec.
type PodSpec struct {
	RestartPolicy string            `yaml:"restartPolicy"`
	NodeSelector  map[string]string `yaml:"nodeSelector,omitempty"`
	Affinity      *Affinity         `yaml:"affinity,omitempty"`
	Containers    []Container       `yaml:"containers"`
}

// Affinity is corev1.Affinity (pod anti-affinity only).
type Affinity struct {
	PodAntiAffinity PodAntiAffinity `yaml:"podAntiAffinity"`
}

// PodAntiAffinity is corev1.PodAntiAffinity.
type PodAntiAffinity struct {
	Required  []PodAffinityTerm         `yaml:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	Preferred []WeightedPodAffinityTerm `yaml:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// PodAffinityTerm is corev1.PodAffinityTerm.
type PodAffinityTerm struct {
	LabelSelector LabelSelector `yaml:"labelSelector"`
	TopologyKey   string        `yaml:"topologyKey"`
}

// WeightedPodAffinityTerm is corev1.WeightedPodAffinityTerm.
type WeightedPodAffinityTerm struct {
	Weight          int             `yaml:"weight"`
	PodAffinityTerm PodAffinityTerm `yaml:"podAffinityTerm"`
}

// LabelSelector is metav1.LabelSelector (matchLabels only).
type LabelSelector struct {
	MatchLabels map[string]string `yaml:"matchLabels"`
}

// Container is corev1.Container.
type Container struct {
	Name            string               `yaml:"name"`
	Image           string               `yaml:"image"`
	ImagePullPolicy string               `yaml:"imagePullPolicy,omitempty"`
	Command         []string             `yaml:"command"`
	Args            []string             `yaml:"args"`
	Env             []EnvVar             `yaml:"env"`
	Resources       ResourceRequirements `yaml:"resources"`
}

// EnvVar is corev1.EnvVar.
type EnvVar struct {
	Name      string        `yaml:"name"`
	Value     string        `yaml:"value,omitempty"`
	ValueFrom *EnvVarSource `yaml:"valueFrom,omitempty"`
}

// EnvVarSource is corev1.EnvVarSource.
type EnvVarSource struct {
	FieldRef     *FieldSelector `yaml:"fieldRef,omitempty"`
	SecretKeyRef *SecretKeyRef  `yaml:"secretKeyRef,omitempty"`
}

// FieldSelector is corev1.ObjectFieldSelector.
type FieldSelector struct {
	FieldPath string `yaml:"fieldPath"`
}

// SecretKeyRef is corev1.SecretKeySelector.
type SecretKeyRef struct {
	Name string `yaml:"name"`
	Key  string `yaml:"key"`
}

// ResourceRequirements is corev1.ResourceRequirements.
type ResourceRequirements struct {
	Requests map[string]string `yaml:"requests,omitempty"`
	Limits   map[string]string `yaml:"limits,omitempty"`
}
