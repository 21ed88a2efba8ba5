/**
 * The hub's way to a host through a connected server instance, outside the
 * host's requests: notifications, and (2025 era) requests of its own.
 *
 * Guarantees: at most {@linkcode MAX_PENDING_NOTIFICATIONS} notifications
 * wait for the host, the rest dropped and said once (a flood cannot grow
 * jn's memory without bound); log messages below the level the host set
 * are not sent; a 2026-07-28 host is never asked outside a request.
 *
 * @module
 */

import type { Server } from "@modelcontextprotocol/server";
import type { JsonObject } from "../types.ts";
import { LOG_LEVELS } from "../session/log_levels.ts";
import type { Downstream } from "./hub.ts";

/** The most notifications waiting to be written to the host. */
export const MAX_PENDING_NOTIFICATIONS = 1024;

/** The MCP log levels, least severe first, as strings a host's message is looked up in. */
export const LEVELS: readonly string[] = LOG_LEVELS;

/** A result schema that takes the host's answer as it is. */
export const AS_IS = {
  "~standard": { version: 1 as const, vendor: "jn", validate: (value: unknown) => ({ value }) },
};

/** No bound of jn's own on a question to the host: the server's request bounds it. */
export const NO_LIMIT = 2 ** 31 - 1;

/** What a downstream reads of its session: the host's log level, and where warnings go. */
export interface DownstreamShared {
  /** The log level the host set (2025 era). */
  level?: string;
  onWarning?: (message: string) => void;
}

/** The hub's way to the host through a connected server instance, outside requests. */
export function downstreamOf(server: Server, shared: DownstreamShared): Downstream {
  let pending = 0;
  let dropped = false;
  const modern = () => (server.getNegotiatedProtocolVersion() ?? "") >= "2026";
  return {
    get era() {
      return modern() ? "modern" : "legacy";
    },
    notify(method, params) {
      if (method === "notifications/message" && shared.level !== undefined && !modern()) {
        const at = LEVELS.indexOf(String(params?.level));
        if (at !== -1 && at < LEVELS.indexOf(shared.level)) return;
      }
      if (pending >= MAX_PENDING_NOTIFICATIONS) {
        if (!dropped) shared.onWarning?.("the host reads too slowly: dropping notifications");
        dropped = true;
        return;
      }
      pending++;
      server.notification({ method, params } as never).catch(() => {}).finally(() => pending--);
    },
    request(method, params, signal) {
      if (modern()) {
        return Promise.reject(
          new Error("the host speaks 2026-07-28: it cannot be asked outside a request"),
        );
      }
      return server.request({ method, params } as never, AS_IS, {
        signal,
        timeout: NO_LIMIT,
      }) as Promise<JsonObject>;
    },
  };
}
