package factcorpus

import (
	"testing"

	"github.com/spillway-dev/spillway/internal/hermetic"
)

func TestMain(m *testing.M) { hermetic.Main(m) }
