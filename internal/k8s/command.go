package k8s

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"benchpress/internal/usage"
)

// NewJobCommand is `benchpress k8s job`: it prints (or writes with -o) the
// Indexed Job of Spec.YAML for the run command given after --, which
// checkRun validates first (a bad command is refused here, not in N pods).
// Bad input is *usage.Error (exit 2).
func NewJobCommand(out, errOut io.Writer, checkRun func(args []string) error) *cobra.Command {
	var s Spec
	var outFile string
	cmd := &cobra.Command{
		Use:   "job --name NAME --partitions N --image IMAGE [flags] -- RUN COMMAND...",
		Short: "Print an Indexed Job that runs one step as N partitions on N nodes",
		Long: `Print a Kubernetes Indexed Job (batch/v1, completionMode: Indexed) that runs the
given benchpress run command as N partitions, one pod each: the pod with
completion index I runs --partition I/N, all pods meet at the barrier table in
the target database under the Job's uid as run id, and pod anti-affinity puts
each partition on its own node. The password comes from a Secret as an
environment variable (--secret), never inline. Each pod prints its result as one
line on stdout (--json -); the comments at the end show how to collect them with
kubectl logs and merge them with benchpress merge. See docs/kubernetes.md.`,
		Example: `  kubectl create secret generic tpcc-db --from-literal=password='...'
  benchpress k8s job --name tpcc-t256 --partitions 4 --image registry.example/benchpress:v1 \
      --secret tpcc-db --cpu 2 --memory 1Gi -- \
      tpcc run --target mysql://bench@proxy:3307/tpcc --warehouses 100 --terminals 256 --warmup 30s --duration 5m \
    | kubectl apply -f -`,
		RunE: func(cmd *cobra.Command, args []string) error {
			dash := cmd.ArgsLenAtDash()
			if dash < 0 || dash != 0 {
				return usage.Errorf("give the run command after --, e.g. -- tpcc run --target ...")
			}
			s.Args = args
			if err := checkRun(args); err != nil {
				return err
			}
			b, err := s.YAML()
			if err != nil {
				return &usage.Error{Err: fmt.Errorf("k8s job: %w", err)}
			}
			if outFile == "" {
				_, err = out.Write(b)
				return err
			}
			if err := os.WriteFile(outFile, b, 0o644); err != nil {
				return fmt.Errorf("k8s job: %w", err)
			}
			fmt.Fprintf(errOut, "manifest written to %s\n", outFile)
			return nil
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&s.Name, "name", "benchpress", "Job name (also names the pods' label and the merge files)")
	fs.StringVar(&s.Namespace, "namespace", "", "namespace of the Job (default: kubectl's)")
	fs.StringVar(&s.Image, "image", "", "image holding the benchpress binary (see docs/kubernetes.md)")
	fs.StringVar(&s.Binary, "binary", "/benchpress", "path of the benchpress binary inside the image")
	fs.IntVar(&s.Partitions, "partitions", 2, "number of partitions (pods, ideally one node each)")
	fs.StringVar(&s.SecretName, "secret", "", "Secret holding the database password")
	fs.StringVar(&s.SecretKey, "secret-key", "password", "key of the password in the Secret")
	fs.StringVar(&s.PasswordEnv, "password-env", "BENCHPRESS_PASSWORD", "environment variable the pod reads the password from")
	fs.StringVar(&s.CPU, "cpu", "1", "CPU request per pod")
	fs.StringVar(&s.Memory, "memory", "512Mi", "memory request per pod")
	fs.StringVar(&s.CPULimit, "cpu-limit", "", "CPU limit per pod (default none: a throttled driver measures itself)")
	fs.StringVar(&s.MemoryLimit, "memory-limit", "", "memory limit per pod")
	fs.StringVar(&s.AntiAffinity, "anti-affinity", "required", "required (each partition on its own node) or preferred")
	fs.StringToStringVar(&s.NodeSelector, "node-selector", nil, "node labels the pods must have (k=v,...)")
	fs.StringVar(&s.ImagePullPolicy, "image-pull-policy", "", "Always, IfNotPresent or Never (default: the cluster's)")
	fs.StringVarP(&outFile, "output", "o", "", "write the manifest to this file instead of stdout")
	return cmd
}
