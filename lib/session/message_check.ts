/**
 * Checks of what a server sends, before the SDK sees it: how deeply a
 * message nests, and whether a response has the shape JSON-RPC 2.0 gives
 * it. The SDK silently drops a response it cannot parse (`result: null`,
 * `result: []`, an error without a code), which leaves the request waiting
 * for its timeout; jn turns such a response into an immediate error of that
 * one request instead. Pure, no I/O.
 *
 * @module
 */

/**
 * The deepest nesting jn accepts in a message. Real results and schemas stay
 * far below it; much deeper ones overflow the stack of recursive validators
 * (the SDK's zod schemas fail between ~1,200 and ~2,000 levels).
 */
export const MAX_JSON_DEPTH = 512;

/** Whether `value` nests objects and arrays more than `limit` levels deep. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  // Iterative: a recursive walk would overflow on exactly what it looks for.
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const current = values.pop()!;
    const depth = depths.pop()!;
    if (depth > limit) return true;
    if (Array.isArray(current)) {
      for (const child of current) {
        if (typeof child === "object" && child !== null) {
          values.push(child);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    for (const key in current) {
      const child = (current as Record<string, unknown>)[key];
      if (typeof child === "object" && child !== null) {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/** A response as the SDK accepts it, or why it is malformed. */
export type ResponseCheck =
  | { ok: true; message: Record<string, unknown> }
  | { ok: false; problem: string };

/**
 * Checks a message that answers a request (it has no `method`). Keys other
 * than `jsonrpc`, `id`, `result` and `error` are dropped (the SDK would
 * reject the whole message for them).
 */
export function checkResponse(message: Record<string, unknown>): ResponseCheck {
  const hasResult = Object.hasOwn(message, "result");
  const hasError = Object.hasOwn(message, "error");
  if (hasResult && hasError) return { ok: false, problem: "it has both a result and an error" };
  if (hasResult) {
    const result = message.result;
    if (!isObject(result)) return { ok: false, problem: `the result is ${describe(result)}` };
    if (Object.hasOwn(result, "_meta") && !isObject(result._meta)) {
      return { ok: false, problem: `the result's _meta is ${describe(result._meta)}` };
    }
    return { ok: true, message: { jsonrpc: "2.0", id: message.id, result } };
  }
  if (hasError) {
    const error = message.error;
    if (!isObject(error)) return { ok: false, problem: `the error is ${describe(error)}` };
    if (!Number.isInteger(error.code)) {
      return { ok: false, problem: `the error's code is ${describe(error.code)}` };
    }
    if (typeof error.message !== "string") {
      return { ok: false, problem: `the error's message is ${describe(error.message)}` };
    }
    return { ok: true, message: { jsonrpc: "2.0", id: message.id, error } };
  }
  return { ok: false, problem: "it has neither a result nor an error" };
}

/** The `data` of the error a malformed answer is replaced with: tells it from a server's error. */
export class MalformedAnswer {
  /** What is wrong with the answer. */
  readonly problem: string;
  constructor(problem: string) {
    this.problem = problem;
  }
}

/** The error response that stands in for a malformed answer to request `id`. */
export function malformedStandIn(id: string | number, problem: string): Record<string, unknown> {
  return {
    jsonrpc: "2.0",
    id,
    error: { code: -32603, message: problem, data: new MalformedAnswer(problem) },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "missing";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
