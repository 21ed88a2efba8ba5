/**
 * How the proxy fails a host's request: a JSON-RPC error the host reads as
 * such. A server's own JSON-RPC error reaches the host as the server sent
 * it (its code, its own message, its data: already redacted by
 * lib/client); any other failure — a timeout, a server that died, a
 * refusal of jn's — is an internal error (-32603) with jn's one-line reason.
 *
 * @module
 */

import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";

export { ProtocolErrorCode };

/** A JSON-RPC error to throw to the host. */
export function rpcError(code: number, message: string, data?: unknown): ProtocolError {
  return new ProtocolError(code, message, data);
}

/** A failure as the host gets it. */
export function hostError(error: unknown): ProtocolError {
  if (error instanceof ProtocolError) return error;
  const failure = error as {
    code?: unknown;
    serverMessage?: unknown;
    message?: unknown;
    data?: unknown;
  };
  if (typeof failure?.code === "number" && Number.isSafeInteger(failure.code)) {
    const message = typeof failure.serverMessage === "string"
      ? failure.serverMessage
      : String(failure.message);
    return rpcError(failure.code, message, failure.data);
  }
  return rpcError(ProtocolErrorCode.InternalError, String(failure?.message ?? error));
}
