package ycsb

import (
	"os"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"benchpress/internal/registry"
	"benchpress/internal/target"
	"benchpress/internal/usage"
)

// common are the flags every ycsb subcommand has.
type common struct {
	tf target.Flags
	propFlags
}

func (c *common) register(fs *pflag.FlagSet) {
	c.tf.Register(fs, registry.DefaultTarget)
	c.propFlags.register(fs)
}

// propFlags are the flags that make the properties: --records, -p and
// --properties.
type propFlags struct {
	records  int64
	props    []string
	propFile string
}

func (c *propFlags) register(fs *pflag.FlagSet) {
	fs.Int64Var(&c.records, "records", 0, "recordcount: records loaded / key space of the run (default: the workload's, 1000)")
	fs.StringArrayVarP(&c.props, "p", "p", nil, "set a core property, name=value (repeatable), e.g. -p requestdistribution=uniform")
	fs.StringVar(&c.propFile, "properties", "", "Java properties file (YCSB workload file); applied before -p")
}

// resolve builds the properties of workload name: built-in (or empty for
// custom), then --properties, then -p, then --records. explicit reports the
// property names given by the user (file or -p).
func (c *propFlags) resolve(name string) (Props, map[string]bool, error) {
	var errs []error
	explicit := map[string]bool{}
	var p Props
	switch strings.ToLower(name) {
	case "":
		errs = append(errs, usage.Errorf("missing WORKLOAD: one of %s or custom", strings.Join(Workloads(), ", ")))
		p = Props{}
	case "custom":
		p = Props{}
		if c.propFile == "" {
			errs = append(errs, usage.Errorf("workload custom needs --properties FILE"))
		}
	default:
		var err error
		if p, err = Properties(name); err != nil {
			errs = append(errs, usage.Errorf("%v (or custom with --properties FILE)", err))
			p = Props{}
		}
	}
	if c.propFile != "" {
		fp, err := readPropFile(c.propFile)
		if err != nil {
			errs = append(errs, err)
		} else {
			for k := range fp {
				explicit[k] = true
			}
			p = p.Merge(fp)
		}
	}
	for _, kv := range c.props {
		if err := p.Set(kv); err != nil {
			errs = append(errs, usage.Errorf("-p %s: %v", kv, err))
			continue
		}
		k, _, _ := strings.Cut(kv, "=")
		explicit[strings.TrimSpace(k)] = true
	}
	if c.records < 0 {
		errs = append(errs, usage.Errorf("--records must be >= 1 (got %d)", c.records))
	} else if c.records > 0 {
		p["recordcount"] = strconv.FormatInt(c.records, 10)
		explicit["recordcount"] = true
	}
	return p, explicit, usage.Join(errs)
}

func readPropFile(path string) (Props, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, usage.Errorf("--properties: %v", err)
	}
	defer fh.Close()
	p, err := ParseProperties(fh)
	if err != nil {
		return nil, usage.Errorf("--properties %s: %v", path, err)
	}
	return p, nil
}

// workloadArg returns the WORKLOAD argument.
func workloadArg(args []string) (string, error) {
	switch len(args) {
	case 0:
		return "", usage.Errorf("missing WORKLOAD: one of %s or custom", strings.Join(Workloads(), ", "))
	case 1:
		return args[0], nil
	}
	return "", usage.Errorf("unexpected argument %q (want one WORKLOAD)", args[1])
}

// checkVariant accepts a-f (also workloada..f) and custom, as run does.
func checkVariant(name string) error {
	if strings.ToLower(name) == "custom" {
		return nil
	}
	if _, err := Properties(name); err != nil {
		return usage.Errorf("unknown YCSB workload %q (want %s or custom)", name, strings.Join(Workloads(), ", "))
	}
	return nil
}
