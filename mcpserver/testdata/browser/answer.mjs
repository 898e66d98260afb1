// Answers spillway's one-time secret pages in a real browser: Debian's
// chromium, driven by playwright-core (mcpserver/secret_browser_test.go).
//
//   node answer.mjs [CHROMIUM]
//
// It reads one JSON request a line on stdin, {"url", "action": "answer" |
// "cancel", "secret"}, opens the page in a fresh browser context (no
// cookies, no cache), reads what it shows, types the secret into its
// password field as a person would, presses Submit (or Cancel) and prints
// one JSON line: {"command", "cwd", "prompt", "done", "status", "console"}
// or {"error"}. The secret is never printed. With "waitForFile", it
// waits, the secret typed, until that file exists before it presses the
// button: a person who takes their time while the command goes on.
import { chromium } from "playwright-core";
import * as readline from "node:readline";
import { existsSync } from "node:fs";

const exe = process.argv[2] || "/usr/bin/chromium";
const browser = await chromium.launch({ executablePath: exe });
console.log(JSON.stringify({ ready: true }));

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  const req = JSON.parse(line);
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
  console.log(JSON.stringify(out));
}
await browser.close();
