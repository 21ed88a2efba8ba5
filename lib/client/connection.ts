/**
 * An open connection to one server, as {@linkcode open} returns it: the
 * session and everything the policy decided on the way — the resolved
 * target, the launch that was started (sandboxed or not), the sandbox it
 * runs in, the drift report of its profile, and the secrets nothing may show.
 *
 * Guarantees: `close()` is idempotent and ends the session and the server's
 * whole process tree (or its HTTP session); `explain()` gives an error of a
 * sandboxed server the hint that says what the sandbox withheld, and redacts
 * the connection's secrets from an error and its causes, once.
 *
 * @module
 */

import type { DriftReport } from "../drift/report.ts";
import type { LaunchSpec } from "../launch/spec.ts";
import { redact } from "../output/redact.ts";
import type { Session } from "../session/types.ts";
import type { OpenOptions, SandboxInfo, SessionUse } from "./options.ts";
import { QuestionBudget } from "./questions.ts";
import { redactError } from "./redact_error.ts";
import type { Target } from "./resolve.ts";
import { explainSandboxFailure } from "./sandbox.ts";

/** What a connection was opened with and found. */
export interface ConnectionInit {
  target: Target;
  session: Session;
  launch: LaunchSpec;
  sandbox?: SandboxInfo;
  secrets: readonly string[];
  options: OpenOptions;
  /** The questions the server may still ask (a fresh budget when absent). */
  questions?: QuestionBudget;
  /** Ends what `close()` must end besides the session (the live stderr reader). */
  onClose?: () => void;
  /** The session the connection goes through, when it does. */
  via?: SessionUse;
  /** Reads a failure as the caller should get it, before it is explained (a session's own). */
  translate?: (error: unknown) => unknown;
}

const explained = new WeakSet<object>();

/** Makes an error safe to show: the sandbox's hint added, secrets redacted (once per error). */
export function explainError<T>(
  error: T,
  context: { sandbox?: SandboxInfo; secrets: readonly string[] },
): T {
  if (typeof error !== "object" || error === null || explained.has(error)) return error;
  explained.add(error);
  explainSandboxFailure(error, context.sandbox);
  return redactError(error, context.secrets);
}

/** An open connection to one server. Close it in `finally` (or `await using`). */
export class Connection implements AsyncDisposable {
  /** The source resolved: launch, operation, defaults, profile. */
  readonly target: Target;
  /** The MCP session (the raw protocol, without jn's policy). */
  readonly session: Session;
  /** What was started (argv after sandboxing, environment) or reached (URL). */
  readonly launch: LaunchSpec;
  /** The sandbox the server runs in, when it is confined. */
  readonly sandbox?: SandboxInfo;
  /** Values that must never be shown (`${VAR}` substitutions, tokens, credential headers). */
  readonly secrets: readonly string[];
  /** The options the connection was opened with. */
  readonly options: OpenOptions;
  /** The profile compared with the live server, when its schema was checked. */
  drift?: DriftReport;
  /** The session the connection goes through (docs/session.md), when it does. */
  readonly via?: SessionUse;
  #questions: QuestionBudget;
  #translate?: (error: unknown) => unknown;
  #onClose?: () => void;
  #closed?: Promise<void>;

  /** A connection over an open session (programs get theirs from {@linkcode open}). */
  constructor(init: ConnectionInit) {
    this.target = init.target;
    this.session = init.session;
    this.launch = init.launch;
    this.sandbox = init.sandbox;
    this.secrets = init.secrets;
    this.options = init.options;
    this.#questions = init.questions ?? new QuestionBudget();
    this.#onClose = init.onClose;
    this.via = init.via;
    this.#translate = init.translate;
  }

  /** How many questions (elicitation, sampling requests) the server asked so far. */
  get questionsAsked(): number {
    return this.#questions.asked;
  }

  /**
   * Calls `listener` whenever the server asks more questions than its calls
   * allow (at most 100 per call: lib/client/questions.ts); returns the
   * function that stops it.
   */
  onTooManyQuestions(listener: () => void): () => void {
    return this.#questions.onExhausted(listener);
  }

  /** `text` with every form of every secret replaced by `***`. */
  redact(text: string): string {
    return redact(text, this.secrets);
  }

  /** An error made safe to show (see {@linkcode explainError}); returns it. */
  explain<T>(error: T): T {
    return explainError((this.#translate?.(error) ?? error) as T, this);
  }

  /** Ends the session and the server's process tree. Idempotent. */
  close(): Promise<void> {
    this.#closed ??= this.session.close().finally(() => this.#onClose?.());
    return this.#closed;
  }

  /** `await using conn = await open(…)` closes it. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
