package target

// Classify maps a driver error to its Class. Implemented per driver in
// classify_*.go; nil maps to ClassNone.
func Classify(err error) Class {
	if err == nil {
		return ClassNone
	}
	return classify(err)
}
