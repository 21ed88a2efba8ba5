/**
 * Following a server's changes for `--follow`: a resource's updates
 * (`notifications/resources/updated`) or a list's changes
 * (`notifications/{tools,resources,prompts}/list_changed`), in both eras —
 * `resources/subscribe` … `resources/unsubscribe` and the unsolicited
 * list-changed notifications of 2025, a `subscriptions/listen` stream in
 * 2026-07-28 (the SDK dispatches its notifications to the same handlers).
 *
 * Guarantees: a server that does not announce the feature (`subscribe`,
 * `listChanged`) is a ProtocolError naming the missing capability before
 * anything is sent; the end of the connection while following is reported
 * through `onEnd`; `close()` is idempotent, removes the handlers, and ends
 * the subscription (unsubscribe or cancel) within a short bound of its own,
 * so it works after Ctrl-C aborted the session's requests.
 *
 * @module
 */

import type { Client } from "@modelcontextprotocol/client";
import { ProtocolError } from "../errors.ts";
import type { JsonObject } from "../types.ts";

/** What to follow: one resource, or one list. */
export type FollowTarget = { resource: string } | { list: "tools" | "resources" | "prompts" };

/** A running follow. */
export interface Following {
  /** Ends it: unsubscribes (2025) or closes the listen stream (2026). Idempotent. */
  close(): Promise<void>;
}

/** Options of {@linkcode startFollowing}. */
export interface FollowOptions {
  /** The server's capabilities. */
  capabilities: JsonObject;
  /** The negotiated era. */
  era?: "legacy" | "modern";
  /** The server's name for messages. */
  server: string;
  /** Bound of the subscribe request (ms; 0 = none). */
  timeoutMs: number;
  /** Aborting it abandons the subscribe request. */
  signal?: AbortSignal;
  /** A change happened (read again). */
  onChange: () => void;
  /** The connection ended while following. */
  onEnd: () => void;
}

/** How long ending a subscription may take (it runs during teardown). */
const CLOSE_BOUND_MS = 2000;

/** Starts following `what`. */
export async function startFollowing(
  client: Client,
  what: FollowTarget,
  options: FollowOptions,
): Promise<Following> {
  const method = notificationOf(what, options);
  client.setNotificationHandler(
    method as "notifications/resources/updated",
    () => options.onChange(),
  );
  const previousOnClose = client.onclose;
  client.onclose = () => {
    previousOnClose?.();
    options.onEnd();
  };
  const requestOptions = {
    timeout: options.timeoutMs > 0 ? options.timeoutMs : undefined,
    signal: options.signal,
  };
  const detach = () => {
    client.removeNotificationHandler(method);
    client.onclose = previousOnClose;
  };
  let end: () => Promise<unknown>;
  try {
    if (options.era === "modern") {
      const subscription = await client.listen(
        "resource" in what
          ? { resourceSubscriptions: [what.resource] }
          : { [`${what.list}ListChanged`]: true },
        requestOptions,
      );
      end = () => subscription.close();
    } else if ("resource" in what) {
      await client.subscribeResource({ uri: what.resource }, requestOptions);
      end = () => client.unsubscribeResource({ uri: what.resource }, { timeout: CLOSE_BOUND_MS });
    } else {
      end = () => Promise.resolve();
    }
  } catch (error) {
    detach();
    throw error;
  }
  let closed: Promise<void> | undefined;
  return {
    close() {
      closed ??= (async () => {
        detach();
        await bounded(end().catch(() => {}), CLOSE_BOUND_MS);
      })();
      return closed;
    },
  };
}

/** The notification that signals a change of `what`, once its capability is checked. */
function notificationOf(what: FollowTarget, options: FollowOptions): string {
  const capabilities = options.capabilities;
  if ("resource" in what) {
    const resources = capabilities.resources as JsonObject | undefined;
    if (!resources?.subscribe) {
      throw new ProtocolError(
        `The server "${options.server}" does not offer resource subscriptions (no "resources.subscribe" capability)`,
        { hint: "read it again later instead: jn cat SOURCE?resource=URI" },
      );
    }
    return "notifications/resources/updated";
  }
  const section = capabilities[what.list] as JsonObject | undefined;
  if (!section?.listChanged) {
    throw new ProtocolError(
      `The server "${options.server}" does not announce changes of its ${what.list} (no "${what.list}.listChanged" capability)`,
      { hint: "list again later instead" },
    );
  }
  return `notifications/${what.list}/list_changed`;
}

function bounded(promise: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise((resolve) => timer = setTimeout(resolve, ms));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
