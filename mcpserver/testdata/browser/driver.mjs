// Drives Debian's chromium through playwright-core for the browser tests
// of mcpserver: the person's console (console_browser_test.go) and the
// one-time secret pages (secret_browser_test.go). One browser serves a
// test binary.
//
//   node driver.mjs [CHROMIUM]
//
// It reads one JSON request a line on stdin and prints one JSON line for
// each: {"ok": true, ...} or {"error"}, with the request's "id": the
// requests are served concurrently, and answered as they finish. A console request names a tab
// ("tab"), made on first use; "context" names the browser context it
// lives in (tabs of one context share cookies, as tabs of one browser do).
//
//   {"op": "goto", "tab", "url"}               open url, wait for the page's script
//   {"op": "text", "tab"}                      the text of #status and #main
//   {"op": "waitText", "tab", "text"}          wait until #main shows text
//   {"op": "waitGone", "tab", "selector"}      wait until nothing matches selector
//   {"op": "click", "tab", "selector"}         click (the first match);
//                                              "waitPost": its post's status
//   {"op": "type", "tab", "selector", "text"}  type as a person does
//   {"op": "keys", "tab", "text"}              type into the focused element
//   {"op": "press", "tab", "key"}              press a key (Enter)
//   {"op": "waitIn", "tab", "selector", "text"} wait until selector shows text
//   {"op": "requests", "tab"}                  the origins the tab requested
//   {"op": "watchLines", "tab"}                note when each line L<n>@<µs> shows
//   {"op": "seenLines", "tab"}                 {n: [printed ms, shown ms]}
//
// A secret page is answered in a fresh context of its own (no cookies,
// no cache), as a person who follows the link does:
//
//   {"op": "answer", "url", "action": "answer" | "cancel", "secret", "waitForFile"}
//
// opens the page, reads what it shows, types the secret into its password
// field, presses Submit (or Cancel) and prints {"command", "cwd",
// "prompt", "done", "status", "console", ...}. The secret is never
// printed. With "waitForFile", it waits, the secret typed, until that
// file exists before it presses the button: a person who takes their
// time while the command goes on.
import { chromium } from "playwright-core";
import * as readline from "node:readline";
import { existsSync } from "node:fs";

const exe = process.argv[2] || "/usr/bin/chromium";
const browser = await chromium.launch({
  executablePath: exe,
  // A closed network: nothing in the background may wait on it.
  args: ["--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
});
console.log(JSON.stringify({ ready: true }));

const contexts = new Map();
const tabs = new Map();

// tab returns the tab req names, made on first use. The maps hold
// promises: requests run concurrently, and two for one new context must
// not make two.
function tab(req) {
  let t = tabs.get(req.tab);
  if (t) return t;
  const name = req.context || "default";
  let ctx = contexts.get(name);
  if (!ctx) {
    ctx = browser.newContext();
    contexts.set(name, ctx);
  }
  t = ctx.then(async (c) => {
    const page = await c.newPage();
    const t = { page, requests: [], console: [] };
    page.on("request", (r) => t.requests.push(new URL(r.url()).origin));
    page.on("console", (m) => t.console.push(m.text()));
    return t;
  });
  tabs.set(req.tab, t);
  return t;
}

// texts reads the page as it is now: a locator would wait its full
// timeout for an element a page (another origin's) does not have.
async function texts(page) {
  return page
    .evaluate(() => ({
      status: document.querySelector("#status")?.textContent ?? "",
      main: document.querySelector("#main")?.innerText ?? "",
      body: document.body?.innerText ?? "",
    }))
    .catch(() => ({ status: "", main: "", body: "" }));
}

async function answer(req) {
  const ctx = await browser.newContext();
  const out = { console: [], requests: [] };
  try {
    const page = await ctx.newPage();
    page.on("console", (m) => out.console.push(m.text()));
    page.on("request", (r) => out.requests.push(new URL(r.url()).origin));
    const res = await page.goto(req.url);
    out.status = res.status();
    out.asker = await page.textContent("#asker");
    out.command = await page.textContent("#command");
    out.cwd = await page.textContent("#cwd");
    out.prompt = await page.textContent("#prompt");
    out.fieldType = await page.getAttribute("#secret", "type");
    await page.locator("#secret").pressSequentially(req.secret ?? "");
    if (req.waitForFile) {
      for (let i = 0; i < 1200 && !existsSync(req.waitForFile); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const [post] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.click(req.action === "cancel" ? "#cancel" : "#submit"),
    ]);
    out.postStatus = post.status();
    out.done = (await page.locator("#done").count()) ? await page.textContent("#done") : await page.textContent("body");
    out.cookies = (await ctx.cookies()).length;
    out.html = (await page.content()).includes(req.secret ?? "\u0000never") ? "echoed" : "clean";
  } catch (e) {
    out.error = String(e);
  }
  await ctx.close();
  return out;
}

// handle serves one request. Requests are served concurrently (the
// tests run in parallel, each in tabs of its own); the answer carries
// the request's id.
async function handle(req) {
  if (req.op === "answer") return answer(req);
  let out = { ok: true };
  try {
    const t = await tab(req);
    const page = t.page;
    switch (req.op) {
      case "goto":
        await page.goto(req.url, { waitUntil: "domcontentloaded" });
        await page.waitForTimeout(300);
        Object.assign(out, await texts(page));
        break;
      case "waitGone":
        await page.locator(req.selector).first().waitFor({ state: "detached", timeout: req.timeout || 20000 });
        Object.assign(out, await texts(page));
        break;
      case "text":
        Object.assign(out, await texts(page));
        break;
      case "waitText":
        await page.locator("#main").filter({ hasText: req.text }).waitFor({ timeout: req.timeout || 20000 });
        Object.assign(out, await texts(page));
        break;
      case "click":
        if (req.waitPost) {
          const [r] = await Promise.all([
            page.waitForResponse((r) => r.request().method() === "POST", { timeout: 20000 }),
            page.locator(req.selector).first().click({ timeout: 20000 }),
          ]);
          out.postStatus = r.status();
          out.postBody = await r.text().catch(() => "");
        } else {
          await page.locator(req.selector).first().click({ timeout: 20000 });
        }
        await page.waitForTimeout(200);
        Object.assign(out, await texts(page));
        break;
      case "type":
        await page.locator(req.selector).first().pressSequentially(req.text, { timeout: 20000 });
        break;
      case "keys":
        await page.keyboard.type(req.text, { delay: 20 });
        break;
      case "press":
        await page.keyboard.press(req.key);
        break;
      case "waitIn":
        await page.locator(req.selector).filter({ hasText: req.text }).first().waitFor({ timeout: req.timeout || 20000 });
        out.inner = await page.locator(req.selector).first().innerText();
        break;
      case "watchLines":
        // Notes when each line L<n>@<µs since the epoch> first shows in
        // #main, by the same clock as the job's.
        await page.evaluate(() => {
          window.seenLines = {};
          const main = document.getElementById("main");
          const scan = () => {
            const now = performance.timeOrigin + performance.now();
            for (const m of main.textContent.matchAll(/L(\d+)@(\d+)/g)) {
              if (!(m[1] in window.seenLines)) window.seenLines[m[1]] = [Number(m[2]) / 1000, now];
            }
          };
          new MutationObserver(scan).observe(main, { subtree: true, childList: true, characterData: true });
          scan();
        });
        break;
      case "seenLines":
        out.seen = await page.evaluate(() => window.seenLines);
        break;
      case "requests":
        out.requests = t.requests;
        out.console = t.console;
        break;
      default:
        out = { error: "unknown op " + req.op };
    }
  } catch (e) {
    out = { error: String(e) };
  }
  return out;
}

const lines = readline.createInterface({ input: process.stdin });
const running = new Set();
for await (const line of lines) {
  if (!line.trim()) continue;
  const req = JSON.parse(line);
  const p = handle(req).then((out) => console.log(JSON.stringify({ ...out, id: req.id })));
  running.add(p);
  p.finally(() => running.delete(p));
}
await Promise.allSettled([...running]);
await browser.close();
