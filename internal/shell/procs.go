package shell

// heldPipes calls fn with the inodes of the job's pipes still open on our
// side and the names of its terminals, holding pipeMu meanwhile so that
// none is closed, and its inode given to another pipe, while its holders
// are looked for.
func (j *job) heldPipes(fn func(inodes []uint64, terminals []string)) {
	j.pipeMu.Lock()
	defer j.pipeMu.Unlock()
	var ino []uint64
	var ttys []string
	for _, s := range j.streams() {
		switch {
		case s.closed:
		case s.ino != 0:
			ino = append(ino, s.ino)
		case s.tty != "":
			ttys = append(ttys, s.tty)
		}
	}
	fn(ino, ttys)
}
