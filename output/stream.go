package output

// Stream describes the whole stream a Pipeline has seen, across every
// window: what a later look at it (a history of results) needs to show
// any part of it again without running anything.
type Stream struct {
	// Bytes and Lines count the sanitized stream (Lines counts a last line
	// without a newline). For a binary stream Bytes is the raw size.
	Bytes, Lines int64
	Binary       bool
	// BinaryBytes is Result.BinaryBytes of the whole stream.
	BinaryBytes int64
	// Whole is the whole sanitized stream when HasWhole: it was never
	// spilled (it fit, or the spill policy kept it).
	Whole    []byte
	HasWhole bool
	// SpillPath names the spill file and Spilled counts the bytes in it:
	// the stream from its start, all of it unless SpillCapped.
	SpillPath   string
	Spilled     int64
	SpillCapped bool
	// SpillError says why the spill file stopped short of the stream
	// (a full disk, the session's budget): it then holds only its start.
	SpillError string
	// Tail is the end of a capped stream (Options.TailKeep bytes at
	// most), and TailOffset the position of its first byte in the stream.
	// When TailOffset equals Spilled, the spill file and Tail together
	// hold the whole stream.
	Tail       []byte
	TailOffset int64
}

// Stream returns the description of the whole stream. Call it after
// Close: before, Whole is not yet known.
func (p *Pipeline) Stream() Stream {
	s := Stream{Bytes: p.bytes, Lines: p.lines(), Binary: p.binary, BinaryBytes: p.san.binaryBytes(), Spilled: p.spilled, SpillCapped: p.spillCapped}
	if p.binary {
		s.Bytes = p.raw
	}
	if p.spill != nil {
		s.SpillPath = p.spill.Path()
	}
	if p.spillErr != nil {
		s.SpillError = p.spillErr.Error()
	}
	if p.closed && !p.spillTried && !p.binary && p.opt.Spill != nil {
		s.Whole, s.HasWhole = p.prefix, true
	}
	if p.keep != nil {
		s.Tail = p.keep.bytes()
		s.TailOffset = p.bytes - int64(len(s.Tail))
	}
	return s
}

// startKeep begins keeping the stream's end, from the first byte the
// capped spill file refused.
func (p *Pipeline) startKeep(rest []byte) {
	if p.opt.TailKeep <= 0 || p.binary {
		return
	}
	p.keep = newTailRing(p.opt.TailKeep)
	p.keep.write(rest)
}
