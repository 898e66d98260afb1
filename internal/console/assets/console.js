// The console page: it logs in with the one-time link's code (the part
// after #), keeps the login in this tab's sessionStorage (this origin
// only), and sends it as a header with every request. The server renders
// the HTML; this script only fetches it, posts the person's answers, and
// follows the server's events.
"use strict";
(function () {
  const KEY = "spillway-console";
  const status = document.getElementById("status");
  const main = document.getElementById("main");
  let login = null;

  function say(text, error) {
    status.textContent = text;
    status.className = error ? "error" : "";
  }

  function headers(extra) {
    const h = { "X-Spillway-Login": login.login, "X-Spillway-Csrf": login.csrf };
    return Object.assign(h, extra || {});
  }

  async function start() {
    try { login = JSON.parse(sessionStorage.getItem(KEY) || "null"); } catch (e) { login = null; }
    if (location.hash.length > 1) {
      const code = location.hash.slice(1);
      history.replaceState(null, "", location.pathname);
      const r = await fetch("/api/login", { method: "POST", headers: { "X-Spillway-Link": code } });
      if (!r.ok) {
        say(await r.text(), true);
        return;
      }
      login = await r.json();
      sessionStorage.setItem(KEY, JSON.stringify(login));
    }
    if (!login) {
      say("Not logged in: run spillway console in your terminal and open the link it prints.", true);
      return;
    }
    say("");
    await refresh();
    follow();
  }

  let refreshing = false, again = false, shown = null;
  async function refresh() {
    if (refreshing) { again = true; return; }
    refreshing = true;
    try {
      do {
        again = false;
        const r = await fetch("/api/view", { headers: headers() });
        if (r.status === 401) {
          sessionStorage.removeItem(KEY);
          say("Logged out: run spillway console again for a new link.", true);
          main.textContent = "";
          return;
        }
        const html = await r.text();
        if (html === shown) {
          // Nothing changed: the page is left as it is (a click in
          // progress is not lost to a redraw).
        } else if (!keepTyping()) {
          shown = html;
          main.innerHTML = html;
          for (const p of main.querySelectorAll("pre.out")) p.scrollTop = p.scrollHeight;
        } else again = true;
        document.dispatchEvent(new Event("spillway-view"));
      } while (again && !keepTyping());
    } finally {
      refreshing = false;
    }
  }

  // A password being typed is not thrown away by a refresh.
  function keepTyping() {
    const a = document.activeElement;
    return a && a.type === "password" && a.value !== "" && main.contains(a);
  }

  // readEvents reads the server-sent events of response r, calling each
  // with the text of every event, until the stream ends.
  async function readEvents(r, each) {
    const rd = r.body.getReader();
    const dec = new TextDecoder();
    let buf = "";
    for (;;) {
      const { value, done } = await rd.read();
      if (done) return;
      buf += dec.decode(value, { stream: true });
      let i;
      while ((i = buf.indexOf("\n\n")) >= 0) {
        const ev = buf.slice(0, i);
        buf = buf.slice(i + 2);
        each(ev);
      }
    }
  }

  // follow reads the server-sent events with fetch: EventSource cannot
  // send the login header.
  async function follow() {
    for (;;) {
      try {
        const r = await fetch("/api/events", { headers: headers() });
        if (!r.ok) return;
        await readEvents(r, (ev) => {
          if (ev.indexOf("event: changed") >= 0) refresh();
        });
      } catch (e) { /* reconnect */ }
      await new Promise((res) => setTimeout(res, 1000));
    }
  }

  main.addEventListener("submit", async (e) => {
    e.preventDefault();
    const form = e.target;
    const data = new URLSearchParams(new FormData(form));
    if (e.submitter && e.submitter.name) data.set(e.submitter.name, e.submitter.value);
    const r = await fetch(form.getAttribute("data-action"), {
      method: "POST",
      headers: headers({ "Content-Type": "application/x-www-form-urlencoded" }),
      body: data,
    });
    for (const f of form.querySelectorAll("input[type=password]")) f.value = "";
    say(r.ok ? "" : await r.text(), !r.ok);
    refresh();
  });

  // Take-over: the job's terminal in an xterm.js terminal, its output
  // streamed from the server while the page holds it; what the person
  // types is posted as it is typed. Closing the stream hands it back.
  let holding = null;
  main.addEventListener("click", (e) => {
    const b = e.target.closest("button.take-over");
    if (b) takeOver(b.dataset.server, b.dataset.session, b.dataset.pid);
  });
  document.getElementById("hand-back").addEventListener("click", () => handBack());

  function handBack() {
    if (!holding) return;
    holding.abort.abort();
    holding.term.dispose();
    holding = null;
    document.getElementById("held").hidden = true;
  }

  async function takeOver(server, session, pid) {
    handBack();
    const abort = new AbortController();
    const term = new Terminal({ cols: 120, rows: 40, convertEol: false });
    document.getElementById("held").hidden = false;
    document.getElementById("held-what").textContent = "pid " + pid;
    term.open(document.getElementById("terminal"));
    holding = { abort, term };
    term.onData((d) => {
      const body = new URLSearchParams({ server, session, pid });
      body.set("secret", d);
      fetch("/api/term/input", {
        method: "POST",
        headers: headers({ "Content-Type": "application/x-www-form-urlencoded" }),
        body,
      }).then(async (r) => { if (!r.ok) say(await r.text(), true); });
    });
    term.focus();
    try {
      const q = new URLSearchParams({ server, session, pid });
      const r = await fetch("/api/term?" + q, { headers: headers(), signal: abort.signal });
      if (!r.ok) {
        say(await r.text(), true);
        handBack();
        return;
      }
      await readEvents(r, (ev) => {
        const data = ev.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("");
        if (data) term.write(Uint8Array.from(atob(data), (c) => c.charCodeAt(0)));
      });
    } catch (e) { /* handed back */ }
    if (holding && holding.term === term) handBack();
  }

  window.spillwayConsole = { headers: () => headers(), say: say };
  start();
})();
