package shell

// A JobWatch is a background job as the person's console shows it.
type JobWatch struct {
	PID     int
	Command string
	State   string
	TTY     bool
	// Output is the end of the job's sanitized output (stdout, then
	// stderr when it is apart), at most the bytes asked for.
	Output string
	// Screen is the terminal's screen, rows as text, for a tty job
	// whose emulator runs.
	Screen []string
}

// Watch describes the jobs for the console, oldest first, with up to
// tail bytes of each one's output. It changes nothing a result of the
// model's shows next.
func (r *Runner) Watch(tail int) []JobWatch {
	r.mu.Lock()
	jobs := append([]*job(nil), r.jobs...)
	r.mu.Unlock()
	out := make([]JobWatch, 0, len(jobs))
	for _, j := range jobs {
		info := j.info()
		w := JobWatch{PID: j.pid, Command: QuoteCommand(j.command, j.args), State: info.State, TTY: j.input != nil && j.input.tty}
		for _, s := range []*stream{j.stdout, j.stderr} {
			if s == nil {
				continue
			}
			s.mu.Lock()
			w.Output += string(s.pipe.Recent(tail))
			s.mu.Unlock()
		}
		if j.term != nil {
			w.Screen = j.term.View().Lines
		}
		out = append(out, w)
	}
	return out
}
