/**
 * How the flag table checks a flag's value: each function turns the text a
 * user typed into the typed value of an options field, or throws a
 * UsageError naming the flag as typed and saying what would be right. Pure,
 * no I/O, and no module that loads Node compatibility (they run on every
 * start-up).
 *
 * @module
 */

import { UsageError } from "../../errors.ts";
import type { ProtocolMode } from "../../client/options.ts";
import type { ElicitAnswers } from "../../client/elicit_answers.ts";

/** A variable name (`--env-passthrough`, `--token-env`, `--…-env`). */
export function envName(text: string, flag: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(text)) {
    throw new UsageError(`Invalid ${flag} "${text}": not a variable name`, {
      hint: `give the name only, e.g. ${flag} GITHUB_TOKEN`,
    });
  }
  return text;
}

/** `Name: value` joined to the headers given so far (`--header`). */
export function header(
  current: Record<string, string> | undefined,
  text: string,
  flag: string,
): Record<string, string> {
  const colon = text.indexOf(":");
  const name = colon === -1 ? "" : text.slice(0, colon).trim();
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
    throw new UsageError(`Invalid ${flag} "${text}": expected "Name: value"`, {
      hint: `e.g. ${flag} "X-Api-Key: abc123"`,
    });
  }
  return { ...current, [name]: text.slice(colon + 1).trim() };
}

/** The first protocol revision the SDK can pin. */
const FIRST_PINNABLE = "2026-07-28";

/** `auto`, `legacy` or a revision to pin (`--protocol`). */
export function protocol(_current: ProtocolMode | undefined, text: string, flag: string) {
  if (text === "auto" || text === "legacy") return text;
  const date = /^\d{4}-\d{2}-\d{2}$/.test(text);
  // The SDK pins only modern revisions: a 2025 date would leak its own message as a
  // protocol failure, so it is a usage error here.
  if (date && text >= FIRST_PINNABLE) return { pin: text };
  const era = date ? `: ${text} is a 2025-era revision and cannot be pinned` : "";
  throw new UsageError(`Invalid ${flag} "${text}"${era}`, {
    hint: `accepted: auto, legacy (every 2025 revision, negotiated), ` +
      `or a revision from ${FIRST_PINNABLE} on to pin`,
  });
}

/** A whole number from `min` to `max` (`-n`, `--concurrency`, `--max-timeouts`). */
export function wholeNumber(min: number, max: number, example: string) {
  return (_current: number | undefined, text: string, flag: string): number => {
    const n = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!(n >= min && n <= max)) {
      const range = max === Number.MAX_SAFE_INTEGER ? `from ${min} on` : `from ${min} to ${max}`;
      throw new UsageError(`Invalid ${flag} "${text}": expected a whole number ${range}`, {
        hint: `e.g. ${example}`,
      });
    }
    return n;
  };
}

/** Text that must not be blank (`--sampling-command`). */
export function nonEmpty(example: string) {
  return (_current: string | undefined, text: string, flag: string): string => {
    if (text.trim() === "") {
      throw new UsageError(`Invalid ${flag}: it is empty`, { hint: `e.g. ${flag} ${example}` });
    }
    return text;
  };
}

/** `--elicit-answers`: a JSON object, or an array of objects (one per question). */
export function elicitAnswers(
  _current: ElicitAnswers | false | undefined,
  text: string,
  flag: string,
): ElicitAnswers {
  const hint = `${flag} takes a JSON object (or one per question), e.g. ${flag} '{"name": "Ada"}'`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`Invalid ${flag}: ${error instanceof Error ? error.message : error}`, {
      hint,
    });
  }
  const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);
  if (isObject(value) || (Array.isArray(value) && value.every(isObject))) {
    return value as ElicitAnswers;
  }
  throw new UsageError(`${flag} must be a JSON object (or an array of objects, one per question)`, {
    hint,
  });
}

/** `[HOST:]PORT` of `serve --http` (an IPv6 host in brackets: `[::1]:8080`). */
export function httpAddress(
  _current: { host?: string; port: number } | undefined,
  value: string,
  name: string,
): { host?: string; port: number } {
  const match = /^(?:(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(value);
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65535) {
    throw new UsageError(`Invalid ${name} "${value}": expected [HOST:]PORT`, {
      hint: `e.g. ${name} 8080 (on 127.0.0.1), ${name} 0.0.0.0:8080, ${name} 0 (any free port)`,
    });
  }
  return match[1] === undefined ? { port } : { host: match[1].replace(/^\[|\]$/g, ""), port };
}
