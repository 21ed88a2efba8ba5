/**
 * `jn completions`: the bash script really completes (bash runs it with
 * COMP_WORDS/COMP_LINE set the way bash sets them), options match `jn help`
 * exactly, and profile names come from the user's profile directories
 * through the hidden `jn __complete`.
 */

import assert from "node:assert/strict";
import { permissionFlags } from "../../lib/sandbox/permissions.ts";
import { DENO_DIR, MAIN, ROOT, runJn, tempDir } from "../helpers.ts";

/** Splits a command line the way bash does for completion (@ : = are words of their own). */
function compWords(line: string): string[] {
  const words: string[] = [];
  let current = "";
  let breaks = false;
  for (const char of line) {
    if (/\s/.test(char)) {
      if (current) words.push(current);
      current = "";
      breaks = false;
    } else {
      const isBreak = "@:=".includes(char);
      // A run of break characters is one word, and so is a run of other characters.
      if (current && isBreak !== breaks) {
        words.push(current);
        current = "";
      }
      current += char;
      breaks = isBreak;
    }
  }
  words.push(current);
  return words;
}

interface Setup {
  root: string;
  script: string;
  bin: string;
  project: string;
  home: string;
  jnHome: string;
}

async function setup(): Promise<Setup> {
  const root = await tempDir("jn-complete-");
  const bin = `${root}/bin`;
  const project = `${root}/project`;
  const home = `${root}/home`;
  const jnHome = `${root}/jn_home`;
  const profile = async (dir: string, name: string, tools: string[] = []) => {
    await Deno.mkdir(`${dir}/${name}`, { recursive: true });
    await Deno.writeTextFile(`${dir}/${name}/_meta.json`, '{"command": "true"}');
    for (const tool of tools) await Deno.writeTextFile(`${dir}/${name}/${tool}.json`, "{}");
  };
  await profile(`${project}/.jn/profiles/mcp`, "projsrv", ["search", "fetch"]);
  await profile(`${home}/.local/jn/profiles/mcp`, "homesrv");
  await profile(`${jnHome}/profiles/mcp`, "jnhomesrv");
  await Deno.writeTextFile(`${project}/data.txt`, "");
  // `jn` on PATH, as installed: the same entry point and flags as the binary.
  await Deno.mkdir(bin);
  await Deno.writeTextFile(
    `${bin}/jn`,
    `#!/bin/sh\nexec "${Deno.execPath()}" run --config "${ROOT}/deno.json" ${
      permissionFlags().join(" ")
    } "${MAIN}" "$@"\n`,
    { mode: 0o755 },
  );
  const generated = await runJn(["completions", "bash"]);
  assert.equal(generated.code, 0, generated.stderr);
  const script = `${root}/jn.bash`;
  await Deno.writeTextFile(script, generated.stdout);
  return { root, script, bin, project, home, jnHome };
}

/** What bash offers for `line` (the cursor at its end). */
async function complete(s: Setup, line: string): Promise<string[]> {
  const words = compWords(line);
  const array = words.map((w) => `'${w.replaceAll("'", `'\\''`)}'`).join(" ");
  const program = `source '${s.script}'
COMP_LINE='${line}'; COMP_POINT=\${#COMP_LINE}
COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}
_jn
printf '%s\\n' "\${COMPREPLY[@]}"`;
  const output = await new Deno.Command("bash", {
    args: ["--norc", "--noprofile", "-c", program],
    cwd: s.project,
    env: {
      PATH: `${s.bin}:${Deno.env.get("PATH")}`,
      HOME: s.home,
      JN_HOME: s.jnHome,
      DENO_DIR,
    },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(new TextDecoder().decode(output.stderr), "");
  return new TextDecoder().decode(output.stdout).split("\n").filter(Boolean).sort();
}

Deno.test("bash completion completes jn's command line", async (t) => {
  const s = await setup();
  try {
    await t.step("commands", async () => {
      assert.deepEqual(await complete(s, "jn ca"), ["cat"]);
      assert.deepEqual(await complete(s, "jn "), [
        "agent-guide",
        "auth",
        "cat",
        "complete",
        "completions",
        "filter",
        "grep",
        "head",
        "help",
        "host",
        "inspect",
        "mcp",
        "profile",
        "put",
        "serve",
        "session",
        "skills",
        "tail",
      ]);
      assert.deepEqual(await complete(s, "jn session "), ["list", "start", "stop"]);
    });
    await t.step("subcommands of a command group", async () => {
      assert.deepEqual(await complete(s, "jn mcp "), [
        "demo-server",
        "explore",
        "hash",
        "schema",
        "tools",
      ]);
      assert.deepEqual(await complete(s, "jn profile tr"), ["trust"]);
      assert.deepEqual(await complete(s, "jn --debug mcp ex"), ["explore"]);
    });
    await t.step("options of the command", async () => {
      assert.deepEqual(await complete(s, "jn cat --sand"), [
        "--sandbox",
        "--sandbox-host",
        "--sandbox-net",
        "--sandbox-read",
        "--sandbox-write",
      ]);
      assert.deepEqual(await complete(s, "jn head --li"), ["--lines"]);
    });
    await t.step("profile names from the project, user and $JN_HOME layers", async () => {
      const names = await complete(s, "jn cat @");
      for (const name of ["@homesrv", "@jnhomesrv", "@projsrv", "@demo"]) {
        assert.ok(names.includes(name), name);
      }
      // bash replaces only the word after "@": the candidates say the rest.
      assert.deepEqual(await complete(s, "jn cat --timeout 5s @pro"), ["projsrv"]);
    });
    await t.step("a profile's tools after @server/", async () => {
      assert.ok((await complete(s, "jn profile info @")).includes("@homesrv"));
      assert.deepEqual(await complete(s, "jn head @projsrv/"), [
        "projsrv/fetch",
        "projsrv/search",
      ]);
    });
    await t.step("a bundled profile's tools", async () => {
      assert.ok((await complete(s, "jn cat @demo/")).includes("demo/echo"));
    });
    await t.step("source schemes", async () => {
      assert.deepEqual(await complete(s, "jn inspect mcp+n"), ["mcp+node://", "mcp+npx://"]);
    });
    await t.step("paths after path options, arguments of completions and help", async () => {
      assert.ok((await complete(s, "jn cat --sandbox-read da")).includes("data.txt"));
      assert.deepEqual(await complete(s, "jn completions "), ["bash", "fish", "zsh"]);
      assert.deepEqual(await complete(s, "jn help m"), ["mcp"]);
    });
    await t.step(
      "the values of a flag that takes a fixed set, nothing for a free value",
      async () => {
        assert.deepEqual(await complete(s, "jn cat --log-level w"), ["warning"]);
        assert.deepEqual(await complete(s, "jn inspect --format "), ["brief", "json", "text"]);
        assert.deepEqual(await complete(s, "jn cat --timeout "), []);
      },
    );
  } finally {
    await Deno.remove(s.root, { recursive: true });
  }
});

Deno.test("completion options never drift from jn help", async (t) => {
  const s = await setup();
  try {
    for (const command of ["cat", "inspect", "mcp schema"]) {
      await t.step(`jn ${command} --`, async () => {
        const help = await runJn(["help", ...command.split(" ")]);
        const documented = [...help.stdout.matchAll(/^\s+(?:(-\w), )?(--[\w-]+)/gm)]
          .flatMap((m) => [m[1], m[2]].filter(Boolean))
          .filter((name) => name.startsWith("--"));
        const completed = await complete(s, `jn ${command} --`);
        for (const name of documented) assert.ok(completed.includes(name), `${name} missing`);
        for (const name of ["--debug", "--quiet"]) assert.ok(completed.includes(name));
      });
    }
  } finally {
    await Deno.remove(s.root, { recursive: true });
  }
});

Deno.test("jn completions prints zsh and fish scripts, refuses other shells", async (t) => {
  await t.step("zsh reuses the bash completion through bashcompinit", async () => {
    const result = await runJn(["completions", "zsh"]);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^# zsh completion for jn/);
    assert.match(result.stdout, /autoload -U \+X bashcompinit && bashcompinit\n/);
    assert.match(result.stdout, /\ncomplete -F _jn jn\n$/);
    const check = await new Deno.Command("bash", {
      args: ["-n"],
      stdin: "piped",
      stderr: "piped",
    }).spawn();
    const writer = check.stdin.getWriter();
    await writer.write(new TextEncoder().encode(result.stdout));
    await writer.close();
    const status = await check.output();
    assert.equal(status.code, 0, new TextDecoder().decode(status.stderr));
  });
  await t.step("fish: commands, subcommands, options and dynamic sources", async () => {
    const result = await runJn(["completions", "fish"]);
    assert.equal(result.code, 0);
    const text = result.stdout;
    assert.match(text, /^complete -c jn -n '__fish_use_subcommand' -a 'cat' -d 'call a tool/m);
    assert.match(
      text,
      /^complete -c jn -n '__fish_seen_subcommand_from mcp; and not __fish_seen_subcommand_from explore tools schema hash demo-server' -a 'schema'/m,
    );
    assert.match(
      text,
      /^complete -c jn -n '__fish_seen_subcommand_from cat' -l sandbox-write -r -F -d/m,
    );
    assert.match(
      text,
      /^complete -c jn -n '__fish_seen_subcommand_from cat' -a '\(jn __complete source \(commandline -ct\)\)'$/m,
    );
  });
  await t.step("an unknown shell is a usage error", async () => {
    const result = await runJn(["completions", "tcsh"]);
    assert.equal(result.code, 2);
    assert.equal(result.stderr, 'jn: Unknown shell "tcsh"\nhint: use bash, zsh, fish\n');
  });
  await t.step("__complete is hidden from help", async () => {
    const result = await runJn(["help"]);
    assert.doesNotMatch(result.stdout, /__complete/);
  });
});

Deno.test("completion never runs or offers a crafted profile name (red team, #12)", async (t) => {
  const s = await setup();
  // Relative: completion runs in the project directory, and a name holds no "/".
  const pwned = `${s.project}/PWNED`;
  const crafted = [
    "$(touch PWNED)",
    "`touch PWNED`",
    "two words",
    "new\nline",
    "x\x1b]0;TITLE\x07",
    "*",
  ];
  try {
    for (const name of crafted) {
      await Deno.mkdir(`${s.project}/.jn/profiles/mcp/${name}`, { recursive: true });
    }
    await Deno.writeTextFile(
      `${s.project}/.jn/profiles/mcp/projsrv/$(touch T).json`,
      "{}",
    );
    await t.step("jn __complete prints only names of the profile-name grammar", async () => {
      const result = await runJn(["__complete", "source", "@"], {
        cwd: s.project,
        env: { HOME: s.home, JN_HOME: s.jnHome },
      });
      assert.equal(result.code, 0, result.stderr);
      const lines = result.stdout.split("\n").filter(Boolean);
      assert.ok(lines.includes("@projsrv"));
      for (const line of lines) assert.match(line, /^@[A-Za-z0-9_-][A-Za-z0-9._-]*$/);
      const tools = await runJn(["__complete", "source", "@projsrv/"], {
        cwd: s.project,
        env: { HOME: s.home, JN_HOME: s.jnHome },
      });
      assert.deepEqual(tools.stdout.split("\n").filter(Boolean), [
        "@projsrv/fetch",
        "@projsrv/search",
      ]);
    });
    await t.step("bash: TAB after @ runs nothing and offers only valid names", async () => {
      const names = await complete(s, "jn cat @");
      assert.ok(names.includes("@projsrv"));
      for (const name of names) assert.match(name, /^@[A-Za-z0-9_-][A-Za-z0-9._-]*$/);
      await complete(s, "jn cat @projsrv/");
      await assert.rejects(Deno.stat(pwned), Deno.errors.NotFound);
      await assert.rejects(Deno.stat(`${s.project}/T`), Deno.errors.NotFound);
    });
    await t.step("a relative JN_HOME names no layer, as in the CLI", async () => {
      await Deno.mkdir(`${s.project}/rel/profiles/mcp/relsrv`, { recursive: true });
      const result = await runJn(["__complete", "source", "@"], {
        cwd: s.project,
        env: { HOME: s.home, JN_HOME: "rel" },
      });
      assert.ok(result.stdout.includes("@homesrv\n"), result.stdout);
      assert.ok(!result.stdout.includes("@relsrv"), result.stdout);
    });
    await t.step("bash: the script never evaluates a candidate, whatever jn prints", async () => {
      // A jn that prints hostile candidates (an older jn, or a wrapper): the script reads them as text.
      await Deno.writeTextFile(
        `${s.bin}/jn`,
        `#!/bin/sh\nprintf '%s\\n' '@$(touch PWNED)' '@\`touch PWNED\`' '@ok'\n`,
        { mode: 0o755 },
      );
      const names = await complete(s, "jn cat @");
      await assert.rejects(Deno.stat(pwned), Deno.errors.NotFound);
      assert.ok(names.includes("@ok"));
    });
    await t.step("zsh", async () => {
      const zsh = await new Deno.Command("sh", { args: ["-c", "command -v zsh"] }).output();
      if (!zsh.success) {
        // deno-lint-ignore no-console
        console.error("SKIPPED zsh completion test: zsh is not installed (apt-get install zsh)");
        return;
      }
      const program = `autoload -U compinit && compinit -u; source '${
        s.script.replace(".bash", ".zsh")
      }'`;
      const generated = await runJn(["completions", "zsh"]);
      await Deno.writeTextFile(s.script.replace(".bash", ".zsh"), generated.stdout);
      const run = await new Deno.Command("zsh", {
        args: [
          "-f",
          "-c",
          `${program}; setopt ksharrays; COMP_LINE='jn cat @'; COMP_POINT=\${#COMP_LINE}; COMP_WORDS=(jn cat @); COMP_CWORD=2; _jn; print -l -- "\${COMPREPLY[@]}"`,
        ],
        cwd: s.project,
        env: {
          PATH: `${s.bin}:${Deno.env.get("PATH")}`,
          HOME: s.home,
          JN_HOME: s.jnHome,
          DENO_DIR,
        },
      }).output();
      assert.ok(run.success, new TextDecoder().decode(run.stderr));
      await assert.rejects(Deno.stat(pwned), Deno.errors.NotFound);
      assert.ok(new TextDecoder().decode(run.stdout).split("\n").includes("@ok"));
    });
  } finally {
    await Deno.remove(s.root, { recursive: true });
  }
});
