//go:build !spillway_portable

package sandbox

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// The messages between the server and a session's zygote, over a Unix
// stream socket: a 4-byte length (native order) and that much JSON, the
// descriptors of a message riding on its length.

// maxFiles is the most descriptors one message carries.
const maxFiles = 64

// A startRequest asks the zygote to start a command. Its descriptors are
// the command's 0, 1, 2, … (Files of them) and then the status pipe's
// write end.
type startRequest struct {
	Path  string
	Args  []string
	Env   []string
	Dir   string
	Files int

	Setsid    bool `json:",omitempty"`
	Setpgid   bool `json:",omitempty"`
	Pgid      int  `json:",omitempty"`
	Setctty   bool `json:",omitempty"`
	Noctty    bool `json:",omitempty"`
	Ctty      int  `json:",omitempty"`
	Pdeathsig int  `json:",omitempty"`

	// EndIfIdle asks, instead of a command, that the zygote end if
	// nothing of the session runs: it answers a reply with Busy set, or
	// an empty one and ends.
	EndIfIdle bool `json:",omitempty"`
}

// A reply answers the zygote's start (Err empty: ready) and each request
// (Err empty: started, with the command's pidfd as its descriptor).
type reply struct {
	Err   string `json:",omitempty"`
	Errno int    `json:",omitempty"` // of a command that did not start
	Busy  bool   `json:",omitempty"` // to EndIfIdle: something still runs
}

// error returns what r reports, nil when it is not an error.
func (r reply) error() error {
	if r.Err == "" {
		return nil
	}
	if r.Errno != 0 {
		return fmt.Errorf("%s: %w", r.Err, syscall.Errno(r.Errno))
	}
	return errors.New(r.Err)
}

// send writes v, and files with it, on the socket fd.
func send(fd int, v any, files ...int) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	msg := binary.NativeEndian.AppendUint32(make([]byte, 0, 4+len(b)), uint32(len(b)))
	msg = append(msg, b...)
	var oob []byte
	if len(files) > 0 {
		oob = unix.UnixRights(files...)
	}
	n, err := unix.SendmsgN(fd, msg, oob, nil, 0)
	for err == nil && n < len(msg) {
		// The descriptors went with the first bytes.
		var m int
		m, err = unix.Write(fd, msg[n:])
		n += m
	}
	return err
}

// receive reads one message into v and returns the descriptors that came
// with it (close-on-exec). io.EOF means the other end closed.
func receive(fd int, v any) ([]int, error) {
	var head [4]byte
	oob := make([]byte, unix.CmsgSpace(maxFiles*4))
	n, oobn, _, _, err := unix.Recvmsg(fd, head[:], oob, unix.MSG_CMSG_CLOEXEC)
	for errors.Is(err, unix.EINTR) {
		n, oobn, _, _, err = unix.Recvmsg(fd, head[:], oob, unix.MSG_CMSG_CLOEXEC)
	}
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, io.EOF
	}
	files, err := parseRights(oob[:oobn])
	if err != nil {
		return nil, err
	}
	if err := readFull(fd, head[n:]); err != nil {
		closeAll(files)
		return nil, err
	}
	body := make([]byte, binary.NativeEndian.Uint32(head[:]))
	if err := readFull(fd, body); err != nil {
		closeAll(files)
		return nil, err
	}
	if err := json.Unmarshal(body, v); err != nil {
		closeAll(files)
		return nil, fmt.Errorf("a message that is not JSON: %w", err)
	}
	return files, nil
}

func parseRights(oob []byte) ([]int, error) {
	if len(oob) == 0 {
		return nil, nil
	}
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return nil, err
	}
	var files []int
	for _, m := range msgs {
		fds, err := unix.ParseUnixRights(&m)
		if err != nil {
			closeAll(files)
			return nil, err
		}
		files = append(files, fds...)
	}
	return files, nil
}

func readFull(fd int, b []byte) error {
	for len(b) > 0 {
		n, err := unix.Read(fd, b)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return err
		}
		if n == 0 {
			return io.ErrUnexpectedEOF
		}
		b = b[n:]
	}
	return nil
}

func closeAll(fds []int) {
	for _, fd := range fds {
		unix.Close(fd)
	}
}

// fileFDs returns the descriptors of files.
func fileFDs(files []*os.File) []int {
	fds := make([]int, len(files))
	for i, f := range files {
		fds[i] = int(f.Fd())
	}
	return fds
}
