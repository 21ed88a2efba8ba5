/**
 * Reading a failed sandboxed server's stderr for the path it needed: the
 * line that names it and the `--sandbox-read` that would show it, for the
 * error shapes of Node, Python, Deno and bubblewrap.
 */

import assert from "node:assert/strict";
import { findHiddenPath, type HiddenPathView } from "../../lib/sandbox/failure_hint.ts";
import { within } from "../../lib/sandbox/host_view.ts";
import { fakeHost } from "./fake_host.ts";

const host = fakeHost({
  files: {
    "/home/me/app/node_modules/zod/package.json": "{}",
    "/home/me/app/node_modules/@s/pkg/dist/index.js": "",
    "/home/me/app/package.json": "{}",
    "/home/me/app/lib/util.js": "",
    "/home/me/data/in.csv": "",
    "/home/me/conf.json": "{}",
    "/home/me/.ssh/id_ed25519": "KEY",
    "/home/me/.aws/node_modules/x/index.js": "",
    "/srv/py/pyproject.toml": "",
    "/srv/py/helpers.py": "",
  },
  links: { "/srv/repo/node_modules": "/home/me" },
});
const view: HiddenPathView = {
  visible: (path) => within(path, "/home/me/app/node_modules/@s/pkg") || within(path, "/usr"),
  stat: host.stat,
  realPath: host.realPath,
  home: "/home/me",
};

Deno.test("findHiddenPath() names the hidden path and the flag that shows it", async (t) => {
  await t.step("Node ESM: a bare package, found where Node would look on the host", () => {
    const stderr = "node:internal/modules/esm/resolve:873\n  throw new ERR_MODULE_NOT_FOUND(…)\n" +
      "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod' imported from " +
      "/home/me/app/node_modules/@s/pkg/dist/index.js\n    at packageResolve (…)\n";
    assert.deepEqual(findHiddenPath(stderr, view), {
      path: "/home/me/app/node_modules/zod",
      line: "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod' imported from " +
        "/home/me/app/node_modules/@s/pkg/dist/index.js",
      grant: "/home/me/app/node_modules",
    });
  });
  await t.step("Node CommonJS: a relative require, from the Require stack", () => {
    const stderr = "Error: Cannot find module '../../../../lib/util.js'\nRequire stack:\n" +
      "- /home/me/app/node_modules/@s/pkg/dist/index.js\n";
    const found = findHiddenPath(stderr, view);
    assert.equal(found?.path, "/home/me/app/lib/util.js");
    assert.equal(found?.grant, "/home/me/app/lib");
  });
  await t.step("ENOENT and Python's errors in package code", () => {
    const stderr = "Error: ENOENT: no such file or directory, open '/home/me/app/lib/util.js'\n";
    assert.deepEqual(findHiddenPath(stderr, view), {
      path: "/home/me/app/lib/util.js",
      line: "Error: ENOENT: no such file or directory, open '/home/me/app/lib/util.js'",
      grant: "/home/me/app/lib",
    });
    const open =
      "python3: can't open file '/srv/py/helpers.py': [Errno 2] No such file or directory";
    assert.equal(findHiddenPath(open, view)?.grant, "/srv/py");
  });
  await t.step("Deno: Module not found", () => {
    const stderr = 'error: Module not found "file:///home/me/app/lib/util.js".';
    assert.equal(findHiddenPath(stderr, view)?.grant, "/home/me/app/lib");
  });
  await t.step("nothing when the path is visible, or missing on the host too", () => {
    assert.equal(
      findHiddenPath("Error: ENOENT: no such file or directory, open '/usr/x'", view),
      undefined,
    );
    assert.equal(
      findHiddenPath("Error: ENOENT: no such file or directory, open '/nope'", view),
      undefined,
    );
    assert.equal(
      findHiddenPath(
        "Error: Cannot find package 'nope' imported from /home/me/app/node_modules/@s/pkg/dist/index.js",
        view,
      ),
      undefined,
    );
  });
  await t.step("never data, a broad or a credential directory: only package code", () => {
    const lines = [
      // The server's word is no reason to show the user's files (issue #12, red team 15).
      "Error: ENOENT: no such file or directory, open '/home/me/.ssh/id_ed25519'",
      "Error: Cannot find module '/home/me'",
      "Error: ENOENT: no such file or directory, open '/home/me/conf.json'",
      "Error: ENOENT: no such file or directory, scandir '/home/me/data'",
      "FileNotFoundError: [Errno 2] No such file or directory: '/home/me/data/in.csv'",
      // node_modules in a credential store, or a node_modules that is a symlink to $HOME.
      "Error: Cannot find module '/home/me/.aws/node_modules/x/index.js'",
      "Error: Cannot find module '/srv/repo/node_modules/.ssh/id_ed25519'",
    ];
    for (const line of lines) assert.equal(findHiddenPath(line, view), undefined, line);
  });
});
