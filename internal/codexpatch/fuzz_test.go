package codexpatch

import "testing"

// The parser and the applier never panic, whatever the patch and file.
func FuzzParseApply(f *testing.F) {
	f.Add("*** Begin Patch\n*** Update File: f\n@@ x\n a\n-b\n+c\n*** End of File\n*** End Patch", []byte("x\na\nb\n"))
	f.Add("<<'EOF'\n*** Begin Patch\n*** Add File: f\n+x\n*** End Patch\nEOF", []byte(""))
	f.Add("*** Begin Patch\n*** Update File: f\n*** Move to: g\n@@\n-\n+\n\n*** Delete File: h\n*** End Patch", []byte("\r\n\r\n"))
	f.Fuzz(func(t *testing.T, patch string, file []byte) {
		p, err := Parse(patch)
		if err != nil {
			return
		}
		for _, h := range p.Hunks {
			if h.Kind == Update {
				ApplyUpdate(file, h)
			}
		}
	})
}
