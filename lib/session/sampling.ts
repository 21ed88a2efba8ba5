/**
 * Answering `sampling/createMessage`: the one place that turns a caller's
 * sampling handler (a program's callback, the CLI's `--sampling-command`)
 * into a JSON-RPC answer, and that refuses when there is none. Shared by the
 * request handler of a session (client_setup.ts) and by anything else that
 * must answer a sampling request the same way (a task's `input_required`).
 *
 * Guarantees: a handler that throws becomes a JSON-RPC error (code -1, the
 * spec's "user rejected sampling request") carrying its message, never a
 * crash, and the caller is told through `onNotice` — except for a
 * {@linkcode SamplingOverflow}, of which the handler tells the caller itself
 * (once, not once per request of a flood); an answer is checked to be a
 * `CreateMessageResult` with text or other content; without a handler the
 * request is refused with MethodNotFound and the caller told through
 * `onNotice` (the session passes one that speaks once).
 *
 * @module
 */

import type { SamplingRequest, SamplingResponse } from "../types.ts";

type Sdk = typeof import("@modelcontextprotocol/client");

/** The JSON-RPC error code of a refused sampling request (MCP: "user rejected"). */
export const SAMPLING_REFUSED = -1;

/**
 * A handler's refusal of a request because too many are already waiting:
 * answered with a JSON-RPC error like any refusal, but without a notice per
 * request (the handler gives one for the whole flood).
 */
export class SamplingOverflow extends Error {
  override name = "SamplingOverflow";
}

/** A caller's sampling handler: resolves with the answer, rejects to refuse. */
export type SamplingHandler = (request: SamplingRequest) => Promise<SamplingResponse>;

/** The notice given when a server asks for sampling and nothing can answer. */
export const NO_SAMPLING_NOTICE =
  "the server asked for an LLM completion (sampling/createMessage); declined: " +
  "no sampling command is set (--sampling-command CMD, or the profile's sampling_command)";

/**
 * Answers one `sampling/createMessage` request's params: the handler's
 * answer, or a thrown SDK ProtocolError (which the SDK sends as the
 * JSON-RPC error).
 */
export async function answerSampling(
  sdk: Sdk,
  params: unknown,
  handler: SamplingHandler | undefined,
  onNotice?: (message: string) => void,
): Promise<SamplingResponse> {
  if (!handler) {
    onNotice?.(NO_SAMPLING_NOTICE);
    throw new sdk.ProtocolError(
      sdk.ProtocolErrorCode.MethodNotFound,
      "Sampling is not supported: this jn run has no sampling command",
    );
  }
  const request = (typeof params === "object" && params !== null ? params : {}) as SamplingRequest;
  let answer: SamplingResponse;
  try {
    answer = await handler(request);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (!(error instanceof SamplingOverflow)) onNotice?.(`declined a sampling request: ${reason}`);
    throw new sdk.ProtocolError(SAMPLING_REFUSED, `Sampling request refused: ${reason}`);
  }
  if (
    typeof answer !== "object" || answer === null || typeof answer.content !== "object" ||
    answer.content === null || typeof answer.model !== "string"
  ) {
    throw new sdk.ProtocolError(
      sdk.ProtocolErrorCode.InternalError,
      "Sampling handler gave no valid answer (needs role, content, model)",
    );
  }
  return { ...answer, role: "assistant" };
}
