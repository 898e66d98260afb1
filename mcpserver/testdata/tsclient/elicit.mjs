// Drives spillway mcp with the official TypeScript SDK client, with or
// without URL-mode elicitation (mcpserver/secret_elicit_test.go).
//
//   SECRET_ANSWER=… node elicit.mjs SPILLWAY_BINARY url|none CALLS_JSON
//
// With "url" the client declares elicitation: {url: {}}; when it is sent
// elicitation/create it accepts, and a moment later "the person" opens
// the page and submits SECRET_ANSWER, as a browser posts the form. It
// prints one JSON line per call: {"result", "events"} or {"error"}; the
// events are the elicitations and completions the client received and
// the status of the page's post. The secret is never printed.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, ElicitationCompleteNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const [bin, mode, callsJSON] = process.argv.slice(2);
const capabilities = mode === "url" ? { elicitation: { url: {} } } : {};
const client = new Client({ name: "spillway-elicit-test", version: "1" }, { capabilities });
let events = [];

async function answer(url) {
  const page = await fetch(url);
  const form = /name="form" value="([^"]+)"/.exec(await page.text())?.[1] ?? "";
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ form, action: "answer", secret: process.env.SECRET_ANSWER }),
  });
  events.push({ posted: res.status });
}

if (mode === "url") {
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    events.push({ elicitation: req.params });
    setTimeout(() => answer(req.params.url).catch((e) => events.push({ postError: String(e) })), 300);
    return { action: "accept" };
  });
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
    events.push({ complete: n.params });
  });
}

await client.connect(new StdioClientTransport({ command: bin, args: ["mcp"], stderr: "inherit" }));
for (const call of JSON.parse(callsJSON)) {
  try {
    const result = await client.callTool(call);
    await new Promise((r) => setTimeout(r, 200)); // a completion notice may follow the result
    console.log(JSON.stringify({ result, events }));
  } catch (e) {
    console.log(JSON.stringify({ error: String(e), events }));
  }
  events = [];
}
await client.close();
