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

// A socket is one end of the Unix stream socket that messages go over.
type socket interface {
	sendmsg(b, oob []byte) (int, error)
	// recvmsg reads into b, and descriptors into oob (close-on-exec).
	recvmsg(b, oob []byte) (n, oobn int, err error)
}

// A rawSocket is a socket's descriptor as it is: a call that must wait,
// waits in the kernel.
type rawSocket int

func (s rawSocket) sendmsg(b, oob []byte) (int, error) {
	return unix.SendmsgN(int(s), b, oob, nil, unix.MSG_NOSIGNAL)
}

func (s rawSocket) recvmsg(b, oob []byte) (int, int, error) {
	n, oobn, _, _, err := unix.Recvmsg(int(s), b, oob, unix.MSG_CMSG_CLOEXEC)
	return n, oobn, err
}

// A conn is a socket that waits in the runtime's poller, holding no
// thread: the server's ends and the hub's. In a runtime with several
// processors, a thread that waits in a system call keeps the runtime's
// monitor (sysmon) looking at it every 20 µs to 10 ms. The zygote, with
// one processor, waits in the kernel instead (see runZygote).
type conn struct {
	f  *os.File
	rc syscall.RawConn
}

// newConn makes fd, a socket, a conn, which owns it from then on.
func newConn(fd int) (*conn, error) {
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, err
	}
	f := os.NewFile(uintptr(fd), "sandbox-socket")
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &conn{f: f, rc: rc}, nil
}

func (c *conn) sendmsg(b, oob []byte) (n int, err error) {
	werr := c.rc.Write(func(fd uintptr) bool {
		n, err = unix.SendmsgN(int(fd), b, oob, nil, unix.MSG_NOSIGNAL)
		return err != unix.EAGAIN
	})
	if werr != nil {
		return 0, werr
	}
	return n, err
}

func (c *conn) recvmsg(b, oob []byte) (n, oobn int, err error) {
	rerr := c.rc.Read(func(fd uintptr) bool {
		n, oobn, _, _, err = unix.Recvmsg(int(fd), b, oob, unix.MSG_CMSG_CLOEXEC)
		return err != unix.EAGAIN
	})
	if rerr != nil {
		return 0, 0, rerr
	}
	return n, oobn, err
}

// Close closes the socket; a call waiting on it returns.
func (c *conn) Close() error { return c.f.Close() }

// send writes v, and files with it, on the socket s.
func send(s socket, v any, files ...int) error {
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
	n, err := s.sendmsg(msg, oob)
	for err == nil && n < len(msg) {
		// The descriptors went with the first bytes.
		var m int
		m, err = s.sendmsg(msg[n:], nil)
		n += m
	}
	return err
}

// receive reads one message into v and returns the descriptors that came
// with it (close-on-exec). io.EOF means the other end closed.
func receive(s socket, v any) ([]int, error) {
	var head [4]byte
	oob := make([]byte, unix.CmsgSpace(maxFiles*4))
	n, oobn, err := s.recvmsg(head[:], oob)
	for errors.Is(err, unix.EINTR) {
		n, oobn, err = s.recvmsg(head[:], oob)
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
	if err := readFull(s, head[n:]); err != nil {
		closeAll(files)
		return nil, err
	}
	body := make([]byte, binary.NativeEndian.Uint32(head[:]))
	if err := readFull(s, body); err != nil {
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

func readFull(s socket, b []byte) error {
	for len(b) > 0 {
		n, _, err := s.recvmsg(b, nil)
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
