/**
 * Answers a server's elicitation requests for the CLI: on a terminal, a
 * prompt per field, validated against the requested schema (URL mode shows
 * the URL and asks for consent; jn never opens a server's URL by itself);
 * without one, a decline — or `--elicit accept-defaults` accepts the schema's
 * defaults. Answers given as data (`--elicit-answers`, a profile's
 * `elicit_answers`) come first, in lib/client (elicit_answers.ts). Every outcome is said in one line on stderr. Everything the
 * server wrote (its message, URL, field titles, descriptions, choices and
 * defaults) is shown with its control characters made visible.
 *
 * @module
 */

import type { ElicitationRequest, ElicitationResponse } from "../types.ts";
import {
  defaultContent,
  type Field,
  type FieldValue,
  formFields,
  parseAnswer,
} from "../client/elicit_fields.ts";
import { type Io, printErr } from "./io.ts";
import { visible } from "../output/visible.ts";
import type { ElicitMode } from "./table/flags.ts";

/** Server text for a prompt line. */
const line = (text: unknown) => visible(String(text), { oneLine: true });
/** Server text that may span lines (the request's message); later lines indented. */
const block = (text: unknown) => visible(String(text)).replaceAll("\n", "\n    ");

/** Options of {@linkcode elicitationHandler}. */
export interface ElicitOptions {
  mode: ElicitMode;
  /** The server's name for messages. */
  server: string;
  quiet: boolean;
}

/** The handler of `elicitation/create` for a CLI run. */
export function elicitationHandler(
  io: Io,
  options: ElicitOptions,
): (request: ElicitationRequest) => Promise<ElicitationResponse> {
  const terminal = io.tty.stdin && io.tty.stderr;
  const mode = options.mode === "auto" ? (terminal ? "prompt" : "decline") : options.mode;
  const say = (text: string) => options.quiet ? Promise.resolve() : printErr(io, text);
  let queue: Promise<unknown> = Promise.resolve();
  return (request) => {
    // One prompt at a time, even when concurrent calls ask at once.
    const answer = queue.then(() =>
      answerOne(io, request, { ...options, mode, asked: options.mode, terminal, say })
    );
    queue = answer.catch(() => {});
    return answer;
  };
}

interface Answering extends ElicitOptions {
  /** The mode the user asked for (`mode` is what it came to: auto is prompt or decline). */
  asked: ElicitMode;
  terminal: boolean;
  say: (text: string) => Promise<void>;
}

async function answerOne(
  io: Io,
  request: ElicitationRequest,
  options: Answering,
): Promise<ElicitationResponse> {
  const { say, server } = options;
  const prompting = options.mode === "prompt" && options.terminal;
  if (request.mode === "url") {
    const message = request.message === "" ? "" : `\n    ${block(request.message)}`;
    await say(`jn: ${server} asks you to open ${line(request.url)}${message}`);
    if (!prompting) {
      // After a refused call (-32042) the error that follows names the URL and what to do.
      if (!request.retry) {
        const why = options.asked === "decline"
          ? "--elicit decline"
          : options.asked === "accept-defaults"
          ? "--elicit accept-defaults has nothing to accept for a URL"
          : "not a terminal, so jn cannot ask whether you opened it";
        await say(`jn: declined (${why}): open the URL yourself, then run the command again`);
      }
      return { action: "decline" };
    }
    const reply = await ask(io, "Have you opened it / continue? [Y/n] ");
    if (reply === undefined) return { action: "cancel" };
    return { action: /^n/i.test(reply.trim()) ? "decline" : "accept" };
  }
  const fields = formFields(request.requestedSchema);
  if (options.mode === "accept-defaults") {
    const defaults = defaultContent(fields);
    if ("missing" in defaults) {
      await say(
        `jn: ${server} asked: ${block(request.message)}\njn: declined: no default for ${
          line(defaults.missing.join(", "))
        }`,
      );
      return { action: "decline" };
    }
    await say(`jn: ${server} asked: ${block(request.message)} — accepted the defaults`);
    return { action: "accept", content: defaults.content };
  }
  if (!prompting) {
    await say(
      `jn: ${server} asked: ${block(request.message)}\njn: declined (not a terminal; ` +
        `--elicit-answers JSON answers it, --elicit accept-defaults accepts the defaults)`,
    );
    return { action: "decline" };
  }
  return await promptForm(io, request.message, fields, server);
}

async function promptForm(
  io: Io,
  message: string,
  fields: Field[],
  server: string,
): Promise<ElicitationResponse> {
  await printErr(
    io,
    `${server} asks: ${block(message)}\n(Enter keeps the [default]; Ctrl-D cancels)`,
  );
  const content: Record<string, FieldValue> = {};
  for (const field of fields) {
    if (field.description && field.description !== field.title) {
      await printErr(io, `  ${block(field.description)}`);
    }
    if (field.choices) {
      await printErr(io, field.choices.map((c, i) => `    ${i + 1}) ${line(c.title)}`).join("\n"));
    }
    for (;;) {
      const reply = await ask(io, `${label(field)}: `);
      if (reply === undefined) return { action: "cancel" };
      const parsed = parseAnswer(field, reply);
      if (parsed.ok) {
        if (parsed.value !== undefined) content[field.name] = parsed.value;
        break;
      }
      await printErr(io, `  ${parsed.message}`);
    }
  }
  const send = await ask(io, "Send this answer? [Y/n] ");
  if (send === undefined) return { action: "cancel" };
  return /^n/i.test(send.trim()) ? { action: "decline" } : { action: "accept", content };
}

function label(field: Field): string {
  const shown = field.default === undefined
    ? ""
    : ` [${line(Array.isArray(field.default) ? field.default.join(",") : field.default)}]`;
  const hint = field.kind === "boolean"
    ? " (y/n)"
    : field.kind === "multi"
    ? " (comma-separated)"
    : "";
  return `  ${line(field.title)}${field.required ? "*" : ""}${hint}${shown}`;
}

/** Prints a question and reads one line of stdin; undefined at end of input. */
async function ask(io: Io, question: string): Promise<string | undefined> {
  try {
    await io.stderr.write(new TextEncoder().encode(question));
  } catch { /* stderr closed: still read */ }
  const reader = io.stdin.getReader();
  const decoder = new TextDecoder();
  let line = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return line === "" ? undefined : line;
      line += decoder.decode(value, { stream: true });
      const end = line.indexOf("\n");
      if (end !== -1) return line.slice(0, end).replace(/\r$/, "");
    }
  } finally {
    reader.releaseLock();
  }
}
