//go:build !unix

package ops

// appendRusageFamilies adds nothing where there is no getrusage.
func appendRusageFamilies(fams []family) []family { return fams }
