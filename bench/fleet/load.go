//go:build unix

package main

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"
)

// A tally counts the calls of a phase.
type tally struct {
	mu        sync.Mutex
	lat       []time.Duration
	byStatus  map[int]int
	errors    []string
	perOwner  map[string]int // calls answered, by the node that owns the session
	answered  int
	attempted int
}

func newTally() *tally { return &tally{byStatus: map[int]int{}, perOwner: map[string]int{}} }

func (t *tally) add(owner string, status int, took time.Duration, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.attempted++
	t.byStatus[status]++
	t.lat = append(t.lat, took)
	if err != nil {
		if len(t.errors) < 5 {
			t.errors = append(t.errors, err.Error())
		}
		return
	}
	if status == http.StatusOK {
		t.answered++
		t.perOwner[owner]++
	}
}

// owner is the node a session id names.
func owner(id string) string {
	n, _, _ := strings.Cut(id, ".")
	return n
}

// readOrLs calls read or ls, at random, on session sess.
func readOrLs(c *client, sess string) (int, error) {
	if rand.IntN(2) == 0 {
		return c.callTool(sess, "read", map[string]any{"path": fmt.Sprintf("file-%02d.txt", rand.IntN(20))})
	}
	return c.callTool(sess, "ls", map[string]any{})
}

// steady makes rate calls a second for d, open loop (a slow answer does
// not slow the schedule), each on a session drawn from pool.
func steady(c *client, pool []string, rate int, d time.Duration, t *tally) {
	interval := time.Second / time.Duration(rate)
	start := time.Now()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 512)
	for i := 0; ; i++ {
		at := start.Add(time.Duration(i) * interval)
		if at.Sub(start) >= d {
			break
		}
		time.Sleep(time.Until(at))
		sess := pool[rand.IntN(len(pool))]
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			t0 := time.Now()
			status, err := readOrLs(c, sess)
			t.add(owner(sess), status, time.Since(t0), err)
		})
	}
	wg.Wait()
}

// openSessions opens n sessions through c, with some at once.
func openSessions(c *client, n int) ([]string, error) {
	var mu sync.Mutex
	var ids []string
	var first error
	var wg sync.WaitGroup
	sem := make(chan struct{}, 32)
	for range n {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			a, err := c.open()
			mu.Lock()
			defer mu.Unlock()
			if err == nil && a.status != http.StatusOK {
				err = fmt.Errorf("initialize: %d", a.status)
			}
			if err != nil {
				if first == nil {
					first = err
				}
				return
			}
			ids = append(ids, a.session)
		})
	}
	wg.Wait()
	return ids, first
}
