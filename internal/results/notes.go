package results

// AddNote records a remark on the run's trustworthiness that does not fail
// it (a watched host that stopped answering, commit counts that disagree).
// Empty notes and repeats are dropped.
func (r *Run) AddNote(note string) {
	if note == "" {
		return
	}
	for _, n := range r.Notes {
		if n == note {
			return
		}
	}
	r.Notes = append(r.Notes, note)
}

// WatchReasons are the watch's inputs to a run's verdict: one reason per
// note (gaps, commit disagreement), so a verdict can say "ok, with notes"
// and list them.
func (r *Run) WatchReasons() []string {
	return append([]string(nil), r.Notes...)
}
