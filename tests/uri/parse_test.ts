import assert from "node:assert/strict";
import { UriSyntaxError, UsageError } from "../../lib/errors.ts";
import { formatCaret, parseSource } from "../../lib/uri/parse.ts";
import type { NakedSource, ProfileSource, Source } from "../../lib/uri/source.ts";

const NONE = { kind: "none" } as const;

function naked(raw: string, fields: Partial<NakedSource>): NakedSource {
  return {
    kind: "naked",
    raw,
    launcher: "npx",
    location: "",
    command: [],
    operation: NONE,
    args: [],
    ...fields,
  };
}

function profile(raw: string, fields: Partial<ProfileSource>): ProfileSource {
  return { kind: "profile", raw, server: "", operation: NONE, args: [], ...fields };
}

const VALID: [string, Partial<Source>][] = [
  ["mcp+npx://@upstash/context7-mcp@latest", {
    launcher: "npx",
    location: "@upstash/context7-mcp@latest",
  }],
  ["mcp+npx://@scope/pkg@1.2.3?tool=search&q=deno", {
    launcher: "npx",
    location: "@scope/pkg@1.2.3",
    operation: { kind: "tool", name: "search" },
    args: [{ key: "q", value: "deno" }],
  }],
  ["mcp+npx://server-everything", { launcher: "npx", location: "server-everything" }],
  ["mcp+uvx://biomcp-python/biomcp?command=run", {
    launcher: "uvx",
    location: "biomcp-python/biomcp",
    command: ["run"],
  }],
  ["mcp+uvx://mcp-server-time", { launcher: "uvx", location: "mcp-server-time" }],
  ["mcp+uvx://pkg/cmd?command=run&command=--port&command=3000", {
    launcher: "uvx",
    location: "pkg/cmd",
    command: ["run", "--port", "3000"],
  }],
  ["mcp+python://./my_server.py", { launcher: "python", location: "./my_server.py" }],
  ["mcp+python://../up/server.py", { launcher: "python", location: "../up/server.py" }],
  ["mcp+python://server.py", { launcher: "python", location: "server.py" }],
  ["mcp+python:///abs/server.py", { launcher: "python", location: "/abs/server.py" }],
  ["mcp+node://./dir%20with%20space/server.js", {
    launcher: "node",
    location: "./dir with space/server.js",
  }],
  ["mcp+deno://./server.ts?list=tools", {
    launcher: "deno",
    location: "./server.ts",
    operation: { kind: "list", what: "tools" },
  }],
  ["mcp+https://example.com/mcp", { launcher: "https", location: "example.com/mcp" }],
  ["mcp+http://localhost:8080/mcp?tool=echo&text=hi", {
    launcher: "http",
    location: "localhost:8080/mcp",
    operation: { kind: "tool", name: "echo" },
    args: [{ key: "text", value: "hi" }],
  }],
  ["mcp+https://[::1]:8443/a%2Fb", { launcher: "https", location: "[::1]:8443/a%2Fb" }],
  ["mcp+https://example.com", { launcher: "https", location: "example.com" }],
  ["mcp+npx://p?resource=file:///etc/hosts%3Fx%3D1", {
    launcher: "npx",
    location: "p",
    operation: { kind: "resource", uri: "file:///etc/hosts?x=1" },
  }],
  ["mcp+npx://p?prompt=greet&name=Ada", {
    launcher: "npx",
    location: "p",
    operation: { kind: "prompt", name: "greet" },
    args: [{ key: "name", value: "Ada" }],
  }],
  ["mcp+npx://p?list=resource_templates", {
    launcher: "npx",
    location: "p",
    operation: { kind: "list", what: "templates" },
  }],
  ["mcp+npx://p?lang=C++&q=a+b&x=%2B&e=&tag=1&tag=2&Tool=T", {
    launcher: "npx",
    location: "p",
    args: [
      { key: "lang", value: "C++" },
      { key: "q", value: "a+b" },
      { key: "x", value: "+" },
      { key: "e", value: "" },
      { key: "tag", value: "1" },
      { key: "tag", value: "2" },
      { key: "Tool", value: "T" },
    ],
  }],
  ["mcp+npx://p?&a=1&&b=x=y&", {
    launcher: "npx",
    location: "p",
    args: [{ key: "a", value: "1" }, { key: "b", value: "x=y" }],
  }],
  ["mcp+npx://p?q=%C3%A9t%C3%A9&url=https://x.org/#frag", {
    launcher: "npx",
    location: "p",
    args: [{ key: "q", value: "été" }, { key: "url", value: "https://x.org/#frag" }],
  }],
  ["mcp+npx://p?", { launcher: "npx", location: "p" }],
  ["mcp+npx://p?command=", { launcher: "npx", location: "p", command: [""] }],
];

const VALID_PROFILES: [string, Partial<ProfileSource>][] = [
  ["@biomcp", { server: "biomcp" }],
  ["@biomcp/search", { server: "biomcp", operation: { kind: "tool", name: "search" } }],
  ["@biomcp/search?gene=BRAF&disease=mel", {
    server: "biomcp",
    operation: { kind: "tool", name: "search" },
    args: [{ key: "gene", value: "BRAF" }, { key: "disease", value: "mel" }],
  }],
  ["@biomcp?tool=search&gene=BRAF", {
    server: "biomcp",
    operation: { kind: "tool", name: "search" },
    args: [{ key: "gene", value: "BRAF" }],
  }],
  ["@fs?resource=file:///tmp/x.txt", {
    server: "fs",
    operation: { kind: "resource", uri: "file:///tmp/x.txt" },
  }],
  ["@srv?prompt=review&code=x", {
    server: "srv",
    operation: { kind: "prompt", name: "review" },
    args: [{ key: "code", value: "x" }],
  }],
  ["@srv?list=tools", { server: "srv", operation: { kind: "list", what: "tools" } }],
  ["@srv?list=prompts", { server: "srv", operation: { kind: "list", what: "prompts" } }],
  ["@srv?list=resources", { server: "srv", operation: { kind: "list", what: "resources" } }],
  ["@srv/search?task=t-1", {
    server: "srv",
    operation: { kind: "task", id: "t-1", tool: "search" },
  }],
  ["@srv?task=t-1&session=s%2F1&tool=x", {
    server: "srv",
    operation: { kind: "task", id: "t-1", tool: "x", session: "s/1" },
  }],
  ["@srv?task=t-1", { server: "srv", operation: { kind: "task", id: "t-1" } }],
  ["@srv/search?session=s", {
    server: "srv",
    operation: { kind: "tool", name: "search" },
    args: [{ key: "session", value: "s" }],
  }],
  ["@my.server_2-x/ns/tool%20name", {
    server: "my.server_2-x",
    operation: { kind: "tool", name: "ns/tool name" },
  }],
];

Deno.test("parseSource() reads every naked URI form", async (t) => {
  for (const [input, fields] of VALID) {
    await t.step(input, () => {
      assert.deepEqual(parseSource(input), naked(input, fields as Partial<NakedSource>));
    });
  }
});

Deno.test("parseSource() reads every profile reference form", async (t) => {
  for (const [input, fields] of VALID_PROFILES) {
    await t.step(input, () => {
      assert.deepEqual(parseSource(input), profile(input, fields));
    });
  }
});

/** [input, caret index, detail (after `Cannot parse URI "…": `), hint fragment?] */
const ERRORS: [string, number, string, string?][] = [
  ["", 0, "the URI is empty", "plain mcp:// is not a thing"],
  ["mcp://server", 3, `"mcp:" names no launcher`, "plain mcp:// is not a thing"],
  ["https://example.com/mcp", 0, `"https://" is not a jn source`, "mcp+https://example.com/mcp"],
  ["biomcp", 0, `expected "mcp+LAUNCHER://…" or "@server"`, "@server/tool"],
  ["mcp+://x", 4, "launcher is empty", "uvx, npx, python, node, deno, cmd, http, https"],
  ["mcp+foo://x", 4, `unknown launcher "foo"`, "launchers: uvx"],
  ["mcp+NPX://x", 4, `unknown launcher "NPX"`, "mcp+npx://"],
  ["mcp+npx:x", 7, `expected "://" after "mcp+npx"`],
  ["mcp+npx", 7, `expected "://" after "mcp+npx"`],
  ["mcp+npx:/x", 7, `expected "://" after "mcp+npx"`],
  ["mcp+uvx://", 10, "package name is empty"],
  ["mcp+uvx://?tool=x", 10, "package name is empty"],
  ["mcp+uvx:///biomcp", 10, "package name is empty"],
  ["mcp+uvx://pkg/", 14, "command name is empty"],
  ["mcp+uvx://pkg/cmd/more", 17, `uvx takes PACKAGE or PACKAGE/COMMAND, not a second "/"`],
  ["mcp+uvx://--from", 10, `package name "--from" starts with "-"`],
  ["mcp+npx://", 10, "package name is empty"],
  ["mcp+npx://-y", 10, `package name "-y" starts with "-"`],
  ["mcp+npx://@/pkg", 11, "npm scope is empty"],
  ["mcp+npx://@scope", 16, `scoped package "@scope" has no name`, "@scope/name"],
  ["mcp+npx://@scope/", 17, "package name is empty after the scope"],
  ["mcp+npx://@scope/@1", 17, "package name is empty after the scope"],
  ["mcp+python://", 13, "script path is empty"],
  ["mcp+node://?tool=x", 11, "script path is empty"],
  ["mcp+python://-c", 13, `script path "-c" starts with "-"`, "./-c"],
  ["mcp+deno://~/server.ts", 11, `script path "~/server.ts" starts with "~"`, "absolute path"],
  ["mcp+python://a%00b", 13, "script path contains a NUL character"],
  ["mcp+python://bad%2", 16, `"%" must be followed by two hex digits`, "%25"],
  ["mcp+python://bad%zz.py", 16, `"%" must be followed by two hex digits`],
  ["mcp+node://x%FF%FE.js", 12, "percent-escapes do not form valid UTF-8"],
  ["mcp+https://", 12, "host is empty"],
  ["mcp+https:///mcp", 12, "host is empty"],
  ["mcp+http://:8080/mcp", 11, "host is empty"],
  ["mcp+https://user:pw@host/mcp", 19, "user info is not supported", "headers"],
  ["mcp+http://host:99999/mcp", 16, `port "99999" is not a number from 1 to 65535`],
  ["mcp+http://host:/mcp", 16, `port "" is not a number from 1 to 65535`],
  ["mcp+http://host:80a/mcp", 16, `port "80a" is not a number from 1 to 65535`],
  ["mcp+https://ho st/mcp", 12, `"https://ho st/mcp" is not a valid URL`],
  ["mcp+https://host/%zz", 17, `"%" must be followed by two hex digits`],
  ["mcp+npx://p?flag", 12, `"flag" has no value`, "flag=VALUE"],
  ["mcp+npx://p?a=1&flag", 16, `"flag" has no value`],
  ["mcp+npx://p?=v", 12, `an argument name is empty before "="`],
  ["mcp+npx://p?a=%", 14, `"%" must be followed by two hex digits`],
  ["mcp+npx://p?a=%4", 14, `"%" must be followed by two hex digits`],
  ["mcp+npx://p?k%g=1", 13, `"%" must be followed by two hex digits`],
  ["mcp+npx://p?a=1%C3", 15, "percent-escapes do not form valid UTF-8"],
  ["mcp+npx://p?tool=a&tool=b", 19, `"tool=" is given twice`],
  ["mcp+npx://p?list=tools&list=prompts", 23, `"list=" is given twice`],
  ["mcp+npx://p?tool=a&resource=r", 19, `"resource=" conflicts with "tool="`, "at most one"],
  ["mcp+npx://p?prompt=a&x=1&list=tools", 25, `"list=" conflicts with "prompt="`],
  ["mcp+npx://p?resource=r&prompt=p", 23, `"prompt=" conflicts with "resource="`],
  ["mcp+npx://p?task=a&resource=r", 19, `"resource=" conflicts with "task="`, "list and task"],
  ["mcp+npx://p?tool=a&task=b&task=c", 26, `"task=" is given twice`],
  ["mcp+npx://p?task=", 17, "task id is empty"],
  ["mcp+npx://p?list=widgets", 17, `unknown list kind "widgets"`, "tools, resources, templates"],
  ["mcp+npx://p?list=", 17, "list kind is empty"],
  ["mcp+npx://p?list=Tools", 17, `unknown list kind "Tools"`],
  ["mcp+npx://p?tool=", 17, "tool name is empty"],
  ["mcp+npx://p?resource=", 21, "resource URI is empty"],
  ["mcp+npx://p?prompt=&x=1", 19, "prompt name is empty"],
  ["mcp+npx://p?command=a%00", 20, "command argument contains a NUL character"],
  ["@", 1, "server name is empty"],
  ["@/tool", 1, "server name is empty"],
  ["@?tool=x", 1, "server name is empty"],
  ["@.hidden", 1, `server name ".hidden" starts with "."`],
  ["@..", 1, `server name ".." starts with "."`],
  ["@bio mcp", 4, `unexpected " " in server name`, "letters, digits"],
  ["@bio:mcp/x", 4, `unexpected ":" in server name`],
  ["@biomcp/", 8, "tool name is empty"],
  ["@biomcp/?gene=x", 8, "tool name is empty"],
  [
    "@biomcp/search?tool=other",
    15,
    `the tool is named twice: "search" in the path and "tool=" in the query`,
  ],
  ["@biomcp/search?resource=x", 15, `"resource=" conflicts with the tool "search" in the path`],
  ["@biomcp?command=run", 8, `"command=" is not allowed in a profile reference`, "_meta.json"],
  ["@biomcp/search?gene=x&command=run", 22, `"command=" is not allowed in a profile reference`],
  ["@biomcp/bad%zz", 11, `"%" must be followed by two hex digits`],
  ["@biomcp?tool=a&tool=b", 15, `"tool=" is given twice`],
];

Deno.test("parseSource() rejects malformed input with a caret at the bad spot", async (t) => {
  for (const [input, index, detail, hint] of ERRORS) {
    await t.step(`${JSON.stringify(input)} at ${index}: ${detail}`, () => {
      const err = captured(input);
      assert.equal(
        err.message.startsWith(`Cannot parse URI "${input}": ${detail}`),
        true,
        err.message,
      );
      assert.equal(err.index, index, `${err.message}\n${formatCaret(err)}`);
      assert.equal(err.input, input);
      if (hint !== undefined) assert.match(err.hint ?? "", new RegExp(escapeRegExp(hint)));
    });
  }
});

Deno.test("formatCaret() puts the caret under the offending character", async (t) => {
  await t.step("in the middle of the input", () => {
    assert.equal(formatCaret(captured("mcp+foo://x")), "  mcp+foo://x\n      ^");
  });
  await t.step("one past the end when the input stops too early", () => {
    assert.equal(formatCaret(captured("mcp+uvx://")), "  mcp+uvx://\n            ^");
  });
  await t.step("at the start", () => {
    assert.equal(formatCaret(captured("bogus")), "  bogus\n  ^");
  });
  await t.step("after tab and non-ASCII characters", () => {
    const err = new UriSyntaxError("a\t\u00e9\u{1F600}b", 5, "x");
    assert.equal(formatCaret(err), "  a\t\u00e9\u{1F600}b\n   \t  ^");
  });
  await t.step("clamped when the index is out of range", () => {
    const err = new UriSyntaxError("ab", 10, "x");
    assert.equal(formatCaret(err), "  ab\n    ^");
  });
});

function captured(input: string): UriSyntaxError {
  try {
    parseSource(input);
  } catch (error) {
    if (error instanceof UriSyntaxError) return error;
    throw error;
  }
  throw new Error(`parseSource(${JSON.stringify(input)}) did not throw`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

Deno.test("parseSource() writes messages in the documented style", () => {
  const err = captured("mcp+uvx://");
  assert.equal(err.message, `Cannot parse URI "mcp+uvx://": package name is empty`);
  assert.equal(err.name, "UriSyntaxError");
  assert.ok(err instanceof UsageError);
});

Deno.test("parseSource() never reads a scoped npm package as URL user-info", () => {
  const source = parseSource("mcp+npx://@user:secret@host/pkg@2?tool=t");
  assert.equal(source.kind, "naked");
  assert.equal(source.kind === "naked" && source.location, "@user:secret@host/pkg@2");
});

Deno.test("parseSource() answers a plain web URL with the exact mcp+ string to paste", async (t) => {
  for (const input of ["https://example.com/mcp?x=1", "http://localhost:3000/mcp"]) {
    await t.step(input, () => {
      const err = captured(input);
      assert.match(err.message, /is not a jn source/);
      assert.equal(err.hint, `to reach this server, write mcp+${input}`);
    });
  }
});
