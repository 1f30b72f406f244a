package cli

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"
)

func newVersionCmd(app *App) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the benchpress version",
		Args:  noArgsUsage,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintf(app.Out, "benchpress %s (%s, %s/%s)\n", app.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
}
