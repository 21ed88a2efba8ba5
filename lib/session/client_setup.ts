/**
 * Builds the SDK client of a session: jn's identity, the capabilities it
 * advertises and the handlers of what a server may ask of it.
 *
 * Guarantees: elicitation is advertised (form and URL mode) only when the
 * caller can answer it; roots only when the caller gave some (advertising
 * none would let servers such as server-filesystem narrow themselves to the
 * current directory); sampling only when the caller can answer it
 * (sampling.ts) — a server that asks anyway gets a JSON-RPC error and the
 * caller a notice (once per session, not once per request). In the 2026-07-28 era the same handlers fulfil
 * `input_required` results (the SDK's auto-fulfilment). With a relay (jn
 * serve), the host's sampling, elicitation and roots are declared and asked
 * instead (relay.ts); roots of jn's own still win.
 *
 * @module
 */

import type { Client } from "@modelcontextprotocol/client";
import { VERSION } from "../version.ts";
import type { JsonSchema } from "../types.ts";
import { relayCapabilities, relayRequests } from "./relay.ts";
import { answerSampling } from "./sampling.ts";
import type { ClientHandlers, ProtocolMode } from "./types.ts";

type Sdk = typeof import("@modelcontextprotocol/client");

/** Options of {@linkcode createClient}. */
export interface CreateClientOptions extends ClientHandlers {
  mode: ProtocolMode;
  /** Bound of the era probe (ms). */
  probeTimeoutMs: number;
  /** A 2025 revision to offer first in `initialize` (a session's: its server's own). */
  offerVersion?: string;
}

/** A new SDK client with jn's capabilities and handlers. */
export function createClient(sdk: Sdk, options: CreateClientOptions): Client {
  const relay = options.relay;
  const capabilities: Record<string, unknown> = relay
    ? relayCapabilities(relay, options.roots !== undefined)
    : {};
  if (!relay && options.onElicit) capabilities.elicitation = { form: {}, url: {} };
  if (!relay && options.roots) capabilities.roots = { listChanged: false };
  if (!relay && options.onSample) capabilities.sampling = {};
  const mode = options.mode;
  const offer = options.offerVersion;
  const client = new sdk.Client({ name: "jn", version: VERSION }, {
    capabilities,
    ...(offer && sdk.SUPPORTED_PROTOCOL_VERSIONS.includes(offer)
      ? {
        supportedProtocolVersions: [
          offer,
          ...sdk.SUPPORTED_PROTOCOL_VERSIONS.filter((version) => version !== offer),
        ],
      }
      : {}),
    versionNegotiation: mode === "legacy"
      ? { mode: "legacy" }
      : { mode, probe: { timeoutMs: options.probeTimeoutMs } },
  });
  if (relay) relayRequests(client, relay, capabilities, options.roots !== undefined);
  const onElicit = relay ? undefined : options.onElicit;
  if (onElicit) {
    client.setRequestHandler("elicitation/create", async (request) => {
      const params = request.params as Record<string, unknown>;
      const answer = await onElicit({
        mode: params.mode === "url" ? "url" : "form",
        message: String(params.message ?? ""),
        requestedSchema: params.requestedSchema as JsonSchema | undefined,
        url: typeof params.url === "string" ? params.url : undefined,
        elicitationId: typeof params.elicitationId === "string" ? params.elicitationId : undefined,
      });
      return answer.action === "accept" && params.mode !== "url"
        ? { action: "accept", content: answer.content ?? {} }
        : { action: answer.action };
    });
  }
  const roots = options.roots;
  if (roots) {
    client.setRequestHandler("roots/list", () => ({ roots: roots.map((r) => ({ ...r })) }));
  }
  const onSample = relay ? undefined : options.onSample;
  if (onSample) {
    client.setRequestHandler(
      "sampling/createMessage",
      // jn's structural answer type is the SDK's CreateMessageResult.
      async (request) =>
        await answerSampling(sdk, request.params, onSample, options.onNotice) as never,
    );
  }
  // Refused without a handler: said once, however many requests a server sends.
  let toldNoSampling = false;
  const noSamplingNotice = (message: string) => {
    if (toldNoSampling) return;
    toldNoSampling = true;
    options.onNotice?.(message);
  };
  client.fallbackRequestHandler = (request) => {
    if (request.method === "sampling/createMessage") {
      return answerSampling(sdk, request.params, undefined, noSamplingNotice) as Promise<never>;
    }
    return Promise.reject(
      new sdk.ProtocolError(
        sdk.ProtocolErrorCode.MethodNotFound,
        `Method not found: ${request.method}`,
      ),
    );
  };
  return client;
}
