// The agent's loop driven by a third-party client: the TypeScript MCP
// SDK's, which validates every structuredContent against the tool's
// outputSchema (a mismatch throws). It starts `lreview-lsp mcp` ($LREVIEW_LSP)
// on a fresh root and lives the loop: new, comments by line and by
// snippet, parallel writes, pages, locate, a suggestion previewed and
// applied, rebase previewed and written, fix, and refusals in words.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const bin = process.env.LREVIEW_LSP;
assert.ok(bin, "set LREVIEW_LSP to the built lreview-lsp");

// x.go in the working tree is the diff's new version with two lines above.
const diff = "diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1,5 +1,6 @@\n package x\n \n func f() int {\n+\ta := 1\n-\treturn 1\n+\treturn a\n }\n";
const source = "// Package x.\n// It is small.\npackage x\n\nfunc f() int {\n\ta := 1\n\treturn a\n}\n";
// The next version of the change: a line added above the function.
const diff2 = "diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1,5 +1,7 @@\n package x\n \n+// f is one.\n func f() int {\n+\ta := 1\n-\treturn 1\n+\treturn a\n }\n";

const root = mkdtempSync(join(tmpdir(), "lreview-mcp-client-"));
writeFileSync(join(root, "change.diff"), diff);
writeFileSync(join(root, "x.go"), source);
const file = "reviews/pr.review.json"; // its directory is made by lreview_new

const client = new Client({ name: "lreview-ts-client-test", version: "1" });
await client.connect(new StdioClientTransport({ command: bin, args: ["mcp", "--root", root], stderr: "inherit" }));

let calls = 0;
async function call(name, args) {
  calls++;
  const res = await client.callTool({ name, arguments: args }); // validates structuredContent
  if (res.isError) throw new Error(`${name}: ${res.content[0].text}`);
  return res.structuredContent;
}
async function refused(name, args, ...wants) {
  calls++;
  const res = await client.callTool({ name, arguments: args });
  assert.ok(res.isError, `${name}: got success, want a refusal`);
  for (const w of wants) assert.ok(res.content[0].text.includes(w), `${name}: got ${JSON.stringify(res.content[0].text)}, want it to say ${JSON.stringify(w)}`);
}

// Every tool has a title; the read-only ones say so and are idempotent.
const { tools } = await client.listTools();
assert.equal(tools.length, 18);
for (const t of tools) {
  assert.ok(t.title && t.annotations?.title, `${t.name}: no title`);
  if (t.annotations.readOnlyHint) assert.equal(t.annotations.idempotentHint, true, `${t.name}: read-only but not idempotent`);
  assert.ok(!JSON.stringify(t.outputSchema).includes('"null"'), `${t.name}: a nullable type in its output schema`);
}
assert.deepEqual(tools.filter((t) => t.annotations.readOnlyHint).map((t) => t.name).sort(),
  ["lreview_blast_radius", "lreview_check", "lreview_cohorts", "lreview_comments", "lreview_locate", "lreview_preview"]);

const created = await call("lreview_new", { diff_file: "change.diff", file, title: "x: name the value" });
assert.deepEqual(created.files, ["x.go"]);

const byLine = await call("lreview_add_comment", { file, path: "x.go", side: "RIGHT", start_line: 4, end_line: 5,
  body: "Name it b.\n```suggestion\n\tb := 1\n\treturn b\n```" });
assert.equal(byLine.id, "c1");
const bySnippet = await call("lreview_add_comment", { file, path: "x.go", side: "LEFT", snippet: "return 1", body: "Why not 1?" });
assert.equal(bySnippet.start_line, 4);

// Parallel writes: 20 comments and 10 replies at once all land.
const writes = [];
for (let i = 0; i < 20; i++) writes.push(call("lreview_add_comment", { file, path: "x.go", side: "RIGHT", start_line: 1 + (i % 6), body: `parallel ${i}` }));
for (let i = 0; i < 10; i++) writes.push(call("lreview_reply", { file, id: "c2", body: `reply ${i}` }));
const results = await Promise.all(writes);
const ids = results.slice(0, 20).map((c) => c.id);
assert.equal(new Set(ids).size, 20, `ids ${ids}`);
const doc = JSON.parse(readFileSync(join(root, file), "utf8"));
assert.equal(doc.comments.length, 22);
assert.equal(doc.comments[1].replies.length, 10);

// Pages: 5 at a time, totals on every page, every comment once.
const seen = new Set();
let cursor, pages = 0;
do {
  const page = await call("lreview_comments", { file, limit: 5, ...(cursor ? { cursor } : {}) });
  assert.equal(page.totals.comments, 22);
  assert.equal(page.total, 22);
  for (const c of page.comments) { assert.ok(!seen.has(c.id)); seen.add(c.id); }
  cursor = page.next_cursor;
  pages++;
} while (cursor);
assert.equal(seen.size, 22);
assert.equal(pages, 5);
const chk = await call("lreview_check", { file, min_severity: "warning" });
assert.equal(chk.clean, true);

// The coding agent: where the lines are now, the suggestion previewed,
// applied, and refused a second time.
const loc = await call("lreview_locate", { file, id: "c1" });
assert.deepEqual([loc.comments[0].status, loc.comments[0].start_line, loc.comments[0].moved], ["moved", 6, 2]);
const pv = await call("lreview_preview", { file, change: "apply_suggestion", id: "c1" });
assert.ok(pv.diff.includes("+\tb := 1\n"));
assert.equal(readFileSync(join(root, "x.go"), "utf8"), source);
const applied = await call("lreview_apply_suggestion", { file, id: "c1" });
assert.equal(applied.written, true);
assert.ok(readFileSync(join(root, "x.go"), "utf8").includes("\tb := 1\n\treturn b\n"));
await refused("lreview_apply_suggestion", { file, id: "c1" }, "already applied", "lreview_locate");

// The change moves on: rebase previewed, then written; fix; check.
const rpv = await call("lreview_preview", { file, change: "rebase", diff_text: diff2 });
assert.ok(rpv.moves.length > 0 && rpv.diff.length > 0);
const rb = await call("lreview_rebase", { file, diff_text: diff2 });
assert.equal(rb.written, true);
const fixed = await call("lreview_fix", { file });
assert.ok(Array.isArray(fixed.fixes));
const edited = await call("lreview_edit_comment", { file, id: "c3", body: "parallel, edited" });
assert.equal(edited.changed, true);
await call("lreview_delete_comment", { file, id: "c4" });
assert.equal((await call("lreview_comments", { file, limit: 1 })).totals.comments, 21);

// Refusals in the server's words.
await refused("lreview_add_comment", { file, path: "x.go", side: "right", start_line: 4, body: "x" }, 'side: expected RIGHT or LEFT (exactly so), got "right"');
await refused("lreview_check", { file: "change.diff" }, "is not a review exchange file", "lreview_new");

await client.close();
console.log(`mcp client: ${calls} calls through the TypeScript SDK's client, every structuredContent valid against its outputSchema`);
