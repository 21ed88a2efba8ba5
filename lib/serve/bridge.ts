/**
 * A 2025 server's requests to a 2026-07-28 host. The 2026-07-28 revision
 * has no server→client requests: a server asks through `input_required`
 * results, and the client retries its request with the answers. A 2025
 * server behind the proxy still sends `sampling/createMessage`,
 * `elicitation/create` or `roots/list` while it works on the host's request;
 * the bridge holds that work, answers the host's request with an
 * `input_required` result carrying those requests and a `requestState` of
 * its own, and when the host retries with that state, hands the answers to
 * the server and waits again — for the result, or for more questions.
 *
 * Guarantees: a `requestState` the bridge did not mint, or one whose work
 * expired, is refused (-32602), never guessed; a question the host leaves
 * unanswered is asked again on the next round; work whose host does not come
 * back within {@linkcode FLOW_TTL_MS} (or whose retry is cancelled) is
 * abandoned: its request to the server is cancelled.
 *
 * @module
 */

import type { JsonObject } from "../types.ts";
import { ProtocolErrorCode, rpcError } from "./errors.ts";

/** How long held work waits for the host's retry. */
export const FLOW_TTL_MS = 10 * 60_000;

const PREFIX = "jn-serve-bridge:";

/** Asks the host something during held work. */
export type Ask = (method: string, params: JsonObject, signal: AbortSignal) => Promise<JsonObject>;

interface Question {
  method: string;
  params: JsonObject;
  resolve: (answer: JsonObject) => void;
  reject: (error: Error) => void;
}

interface Flow {
  id: string;
  abort: AbortController;
  outcome: Promise<{ ok: true; value: JsonObject } | { ok: false; error: unknown }>;
  questions: Map<string, Question>;
  wake?: () => void;
  timer?: ReturnType<typeof setTimeout>;
}

/** What a round gets from the host's request. */
export interface Round {
  /** The request's `requestState`, if any. */
  requestState?: string;
  /** The request's `inputResponses`, if any. */
  inputResponses?: Record<string, unknown>;
  /** Aborted when the host cancels this request. */
  signal: AbortSignal;
}

/** Held work of one downstream session. */
export class InputBridge {
  #flows = new Map<string, Flow>();
  #next = 0;

  /** Whether a request resumes held work (its state is the bridge's). */
  static owns(requestState: string | undefined): boolean {
    return typeof requestState === "string" && requestState.startsWith(PREFIX);
  }

  /**
   * Serves one round: resumes the held work `round` names, or starts
   * `work` (given its signal and the way to ask the host), and answers with
   * its result or an `input_required` result.
   */
  async serve(round: Round, work: (signal: AbortSignal, ask: Ask) => Promise<JsonObject>) {
    let flow: Flow;
    if (InputBridge.owns(round.requestState)) {
      const held = this.#flows.get(round.requestState!.slice(PREFIX.length));
      if (!held) {
        throw rpcError(ProtocolErrorCode.InvalidParams, "Invalid or expired requestState", {
          reason: "invalid_request_state",
        });
      }
      flow = held;
      clearTimeout(flow.timer);
      for (const [key, answer] of Object.entries(round.inputResponses ?? {})) {
        const question = flow.questions.get(key);
        if (!question || answer === null || typeof answer !== "object") continue;
        flow.questions.delete(key);
        question.resolve(answer as JsonObject);
      }
    } else {
      flow = this.#start(work);
    }
    const cancel = () => this.#end(flow, "the host cancelled the request");
    round.signal.addEventListener("abort", cancel, { once: true });
    try {
      const next = await Promise.race([
        flow.outcome,
        new Promise<"asked">((resolve) => {
          flow.wake = () => resolve("asked");
          if (flow.questions.size > 0) resolve("asked");
        }),
      ]);
      if (next !== "asked") {
        this.#flows.delete(flow.id);
        if (next.ok) return next.value;
        throw next.error;
      }
      flow.timer = setTimeout(
        () => this.#end(flow, "the host did not answer in time"),
        FLOW_TTL_MS,
      );
      const inputRequests: JsonObject = {};
      for (const [key, question] of flow.questions) {
        inputRequests[key] = { method: question.method, params: question.params };
      }
      return {
        resultType: "input_required",
        inputRequests,
        requestState: `${PREFIX}${flow.id}`,
      } as JsonObject;
    } finally {
      flow.wake = undefined;
      round.signal.removeEventListener("abort", cancel);
    }
  }

  /** Abandons every held work (the session ended). */
  close(): void {
    for (const flow of [...this.#flows.values()]) this.#end(flow, "the session ended");
  }

  #start(work: (signal: AbortSignal, ask: Ask) => Promise<JsonObject>): Flow {
    const abort = new AbortController();
    const flow: Flow = {
      id: crypto.randomUUID(),
      abort,
      questions: new Map(),
      outcome: undefined as never,
    };
    const ask: Ask = (method, params, signal) =>
      new Promise<JsonObject>((resolve, reject) => {
        const key = `q${++this.#next}`;
        const question = { method, params, resolve, reject };
        flow.questions.set(key, question);
        signal.addEventListener("abort", () => {
          flow.questions.delete(key);
          reject(new Error("The server cancelled its request"));
        }, { once: true });
        flow.wake?.();
      });
    flow.outcome = work(abort.signal, ask).then(
      (value) => ({ ok: true as const, value }),
      (error) => ({ ok: false as const, error }),
    );
    this.#flows.set(flow.id, flow);
    return flow;
  }

  #end(flow: Flow, why: string): void {
    clearTimeout(flow.timer);
    this.#flows.delete(flow.id);
    for (const question of flow.questions.values()) question.reject(new Error(why));
    flow.questions.clear();
    flow.abort.abort(new Error(why));
  }
}
