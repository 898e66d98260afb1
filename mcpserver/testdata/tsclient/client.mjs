// Calls spillway's tools through the official TypeScript SDK client with
// its default options (60 s request timeout, output schema checks), the
// way Claude Desktop, Cline and most Node agents do.
//
//   node client.mjs SPILLWAY_BINARY CALLS_JSON
//
// CALLS_JSON is an array of {"name", "arguments"}. It prints one JSON line
// per call: {"result": CallToolResult, "ms": elapsed} or {"error": message}.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bin, callsJSON] = process.argv.slice(2);
const client = new Client({ name: "spillway-tsclient-test", version: "1" });
await client.connect(new StdioClientTransport({ command: bin, args: ["mcp"], stderr: "inherit" }));
await client.listTools(); // the client learns the tools' output schemas
for (const call of JSON.parse(callsJSON)) {
  const start = Date.now();
  try {
    const result = await client.callTool(call); // default options
    console.log(JSON.stringify({ result, ms: Date.now() - start }));
  } catch (e) {
    console.log(JSON.stringify({ error: String(e), ms: Date.now() - start }));
  }
}
await client.close();
