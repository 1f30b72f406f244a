package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"benchpress/internal/k8s"
)

func newK8sCmd(app *App) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "k8s",
		Short: "Kubernetes manifests for runs partitioned over several load machines",
		Args:  noArgsUsage,
	}
	cmd.AddCommand(newK8sJobCmd(app))
	return cmd
}

func newK8sJobCmd(app *App) *cobra.Command {
	var s k8s.Spec
	var out string
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
				return usagef("give the run command after --, e.g. -- tpcc run --target ...")
			}
			s.Args = args
			if err := checkRunCommand(app, args); err != nil {
				return err
			}
			b, err := s.YAML()
			if err != nil {
				return &UsageError{Err: fmt.Errorf("k8s job: %w", err)}
			}
			if out == "" {
				_, err = app.Out.Write(b)
				return err
			}
			if err := os.WriteFile(out, b, 0o644); err != nil {
				return fmt.Errorf("k8s job: %w", err)
			}
			fmt.Fprintf(app.Err, "manifest written to %s\n", out)
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
	fs.StringVarP(&out, "output", "o", "", "write the manifest to this file instead of stdout")
	return cmd
}

// checkRunCommand parses args as a benchpress command line (without running
// it) so that a typo fails here and not in N pods: it must be a run command
// that takes --partition.
func checkRunCommand(app *App, args []string) error {
	root := NewRoot(&App{Out: app.Out, Err: app.Err, Getenv: func(string) string { return "" }})
	c, rest, err := root.Find(args)
	if err != nil || c == root {
		return usagef("k8s job: %q is not a benchpress command", strings.Join(args, " "))
	}
	if c.Flags().Lookup("partition") == nil {
		return usagef("k8s job: %s cannot be partitioned (no --partition)", c.CommandPath())
	}
	if err := c.ParseFlags(rest); err != nil {
		return usagef("k8s job: %s: %v", c.CommandPath(), err)
	}
	return nil
}
