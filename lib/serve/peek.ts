/**
 * What the proxy reads of a host's message before the SDK serves it: the
 * capabilities the host declares (in `initialize`, or in the 2026-07-28
 * envelope of any request) and so its era, and the resources a 2026-07-28
 * `subscriptions/listen` asks to hear about (the SDK's entries answer the
 * listen themselves; the proxy must subscribe upstream).
 *
 * Guarantees: pure; anything malformed reads as nothing (the SDK refuses
 * the message itself).
 *
 * @module
 */

import type { JsonObject } from "../types.ts";

const CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";

function object(value: unknown): JsonObject | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? value as JsonObject
    : undefined;
}

/** What a host says of itself in a message: its client capabilities and its era. */
export interface HostDeclaration {
  capabilities: JsonObject;
  /** `legacy`: a 2025 `initialize`; `modern`: a request with the 2026-07-28 envelope. */
  era: "legacy" | "modern";
}

/** What a host message declares of the host, if it declares its capabilities. */
export function declaredHost(message: unknown): HostDeclaration | undefined {
  const request = object(message);
  const params = object(request?.params);
  if (request?.method === "initialize") {
    const capabilities = object(params?.capabilities);
    return capabilities && { capabilities, era: "legacy" };
  }
  const capabilities = object(object(params?._meta)?.[CAPABILITIES_KEY]);
  return capabilities && { capabilities, era: "modern" };
}

/** The resource URIs a `subscriptions/listen` request names. */
export function listenedResources(message: unknown): string[] {
  const request = object(message);
  if (request?.method !== "subscriptions/listen") return [];
  const filter = object(object(request.params)?.notifications);
  const uris = filter?.resourceSubscriptions;
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === "string") : [];
}
