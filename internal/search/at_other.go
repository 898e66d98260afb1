//go:build !linux || spillway_portable

package search

// Elsewhere a walk opens what it meets by path.

type walkRoot struct{}

func openWalkRoot(string) *walkRoot { return nil }

func (*walkRoot) settle() {}

func closeWalkRoot(*walkRoot) {}

func openReadAt(f *rawFile, e Entry) error {
	g, err := openRead(e.Path())
	if err != nil {
		return err
	}
	*f = *g
	return nil
}
