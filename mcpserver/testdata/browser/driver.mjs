// Drives spillway console's page in a real browser: Debian's chromium,
// through playwright-core (mcpserver/console_browser_test.go).
//
//   node console.mjs [CHROMIUM]
//
// It reads one JSON request a line on stdin and prints one JSON line for
// each: {"ok": true, ...} or {"error"}. A request names a tab ("tab"),
// made on first use; "context" names the browser context it lives in
// (tabs of one context share cookies, as tabs of one browser do).
//
//   {"op": "goto", "tab", "url"}               open url, wait for the page's script
//   {"op": "text", "tab"}                      the text of #status and #main
//   {"op": "waitText", "tab", "text"}          wait until #main shows text
//   {"op": "click", "tab", "selector"}         click (the first match);
//                                              "waitPost": its post's status
//   {"op": "type", "tab", "selector", "text"}  type as a person does
//   {"op": "keys", "tab", "text"}              type into the focused element
//   {"op": "press", "tab", "key"}              press a key (Enter)
//   {"op": "waitIn", "tab", "selector", "text"} wait until selector shows text
//   {"op": "requests", "tab"}                  the origins the tab requested
import { chromium } from "playwright-core";
import * as readline from "node:readline";

const exe = process.argv[2] || "/usr/bin/chromium";
const browser = await chromium.launch({
  executablePath: exe,
  // A closed network: nothing in the background may wait on it.
  args: ["--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
});
console.log(JSON.stringify({ ready: true }));

const contexts = new Map();
const tabs = new Map();

async function tab(req) {
  let t = tabs.get(req.tab);
  if (t) return t;
  const name = req.context || "default";
  let ctx = contexts.get(name);
  if (!ctx) {
    ctx = await browser.newContext();
    contexts.set(name, ctx);
  }
  const page = await ctx.newPage();
  t = { page, requests: [], console: [] };
  page.on("request", (r) => t.requests.push(new URL(r.url()).origin));
  page.on("console", (m) => t.console.push(m.text()));
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

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  const req = JSON.parse(line);
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
  console.log(JSON.stringify(out));
}
await browser.close();
