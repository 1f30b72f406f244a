package report

import (
	"fmt"
	"strings"
)

// Markdown renders d; charts are referenced as charts/<name>.svg.
func (d *Doc) Markdown() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", d.Title)
	for _, bl := range d.Blocks {
		b.WriteByte('\n')
		switch x := bl.(type) {
		case Heading:
			fmt.Fprintf(&b, "%s %s\n", strings.Repeat("#", x.Level), x.Text)
		case Para:
			fmt.Fprintf(&b, "%s\n", x.Text)
		case List:
			for _, it := range x.Items {
				fmt.Fprintf(&b, "- %s\n", it)
			}
		case Note:
			label := "Note"
			if x.Warn {
				label = "Warning"
			}
			fmt.Fprintf(&b, "> **%s:** %s\n", label, x.Text)
		case Chart:
			fmt.Fprintf(&b, "![%s](charts/%s.svg)\n", x.Title, x.Name)
		case Table:
			writeMDTable(&b, x)
		}
	}
	return []byte(b.String())
}

func writeMDTable(b *strings.Builder, t Table) {
	row := func(cells []string) {
		b.WriteByte('|')
		for _, c := range cells {
			fmt.Fprintf(b, " %s |", strings.ReplaceAll(strings.ReplaceAll(c, "|", `\|`), "\n", " "))
		}
		b.WriteByte('\n')
	}
	row(t.Header)
	sep := make([]string, len(t.Header))
	for i := range sep {
		sep[i] = "---"
		if i < len(t.Align) && t.Align[i] == 'r' {
			sep[i] = "--:"
		}
	}
	b.WriteByte('|')
	for _, s := range sep {
		fmt.Fprintf(b, " %s |", s)
	}
	b.WriteByte('\n')
	for _, r := range t.Rows {
		row(r)
	}
}
