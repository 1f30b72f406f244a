package report

// Doc is a renderer-neutral report: Markdown and HTML are both rendered
// from the same blocks, so they always hold the same numbers.
type Doc struct {
	Title  string
	Blocks []Block
}

// Block is one of Heading, Para, Table, Chart, List or Note.
type Block interface{ block() }

// Heading is a section title (Level 2..4).
type Heading struct {
	Level int
	Text  string
}

// Para is a paragraph; **text** marks bold.
type Para struct{ Text string }

// Table is a table; Align holds 'l' or 'r' per column ('l' when missing).
type Table struct {
	Header []string
	Rows   [][]string
	Align  string
}

// Chart is an SVG chart stored as charts/<Name>.svg next to report.md.
type Chart struct {
	Name  string
	Title string
	SVG   []byte
}

// List is a bullet list; items may use **bold**.
type List struct{ Items []string }

// Note is a highlighted remark; Warn marks problems (failed steps,
// driver-bound runs, failed checks).
type Note struct {
	Warn bool
	Text string
}

func (Heading) block() {}
func (Para) block()    {}
func (Table) block()   {}
func (Chart) block()   {}
func (List) block()    {}
func (Note) block()    {}

func (d *Doc) add(b ...Block)              { d.Blocks = append(d.Blocks, b...) }
func (d *Doc) h(level int, text string)    { d.add(Heading{Level: level, Text: text}) }
func (d *Doc) p(text string)               { d.add(Para{Text: text}) }
func (d *Doc) note(warn bool, text string) { d.add(Note{Warn: warn, Text: text}) }
func (d *Doc) table(t Table)               { d.add(t) }
