/**
 * How many questions a server may ask: at most
 * {@linkcode MAX_QUESTIONS_PER_CALL} for each request of jn's during which a
 * server asks them (a tool call, a task's result, a prompt, a read, a
 * completion). A question is an `elicitation/create` or a
 * `sampling/createMessage` request; a task that is `input_required` asks
 * through them.
 *
 * Guarantees: the budget of a connection grows with the calls jn makes, so
 * `put`'s thousand calls may each ask, while one call cannot ask without end
 * (a task that answers every reply with a new question, thousands a second);
 * past the budget a question is refused without reaching the caller's
 * handler (nothing asked, nothing printed), the caller is told once, and
 * whoever waits for a task hears of it ({@linkcode QuestionBudget.onExhausted})
 * to cancel the task instead of waiting for its hard bound.
 *
 * @module
 */

/** The most questions a server may ask for one call (a generous form wizard asks a dozen). */
export const MAX_QUESTIONS_PER_CALL = 100;

/** The requests during which a server may ask questions: each grants a budget. */
const ASKING = new Set([
  "tools/call",
  "tasks/result",
  "prompts/get",
  "resources/read",
  "completion/complete",
]);

/** The questions of one connection. */
export class QuestionBudget {
  #granted = 0;
  #asked = 0;
  #told = false;
  #onNotice?: (message: string) => void | Promise<void>;
  #listeners = new Set<() => void>();

  /** `onNotice` is told, once, that questions were refused. */
  constructor(onNotice?: (message: string) => void | Promise<void>) {
    this.#onNotice = onNotice;
  }

  /** jn sent a request (`method`): one that may be asked about grants more questions. */
  sent(method: string): void {
    if (ASKING.has(method)) this.#granted += MAX_QUESTIONS_PER_CALL;
  }

  /** Whether the server asked more questions than its calls allow. */
  get exhausted(): boolean {
    return this.#asked > this.#granted;
  }

  /** How many questions the server asked. */
  get asked(): number {
    return this.#asked;
  }

  /** Calls `listener` when the budget runs out; returns the function that stops it. */
  onExhausted(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * A question handler that counts each question and, past the budget,
   * answers `refused()` instead of asking `handler`.
   */
  guard<Q, A>(
    handler: ((question: Q) => Promise<A>) | undefined,
    refused: () => Promise<A>,
  ): ((question: Q) => Promise<A>) | undefined {
    if (!handler) return handler;
    return async (question) => {
      this.#asked++;
      if (!this.exhausted) return await handler(question);
      if (this.#asked === this.#granted + 1) await this.#exhaust();
      return await refused();
    };
  }

  async #exhaust(): Promise<void> {
    for (const listener of [...this.#listeners]) listener();
    if (this.#told) return;
    this.#told = true;
    await this.#onNotice?.(
      `the server asked more than ${MAX_QUESTIONS_PER_CALL} questions for one call ` +
        "(elicitation or sampling requests); refusing the rest unasked",
    );
  }
}
