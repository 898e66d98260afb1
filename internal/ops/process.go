package ops

// The process's metrics are named and described as Prometheus' process
// collector does. Each platform gives what it can read cheaply; a metric
// it cannot read is left out rather than reported as 0.

// appendProcessFamilies adds the process's metrics to fams.
func appendProcessFamilies(fams []family) []family {
	return appendProcFamilies(appendRusageFamilies(fams))
}
