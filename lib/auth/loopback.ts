/**
 * The loopback receiver of an OAuth sign-in (RFC 8252 §7.3): a one-shot HTTP
 * listener on 127.0.0.1 that catches the authorization server's redirect to
 * `/callback`, checks `state`, and hands back the code. It listens on the
 * port asked for when that port is free (so a client registered with a
 * redirect URI keeps it), on a random one otherwise; it never listens on
 * anything but the loopback interface.
 *
 * @module
 */

import { ConnectionError, InterruptedError } from "../errors.ts";

/** What the redirect carried. */
export interface CallbackParams {
  code: string;
  /** RFC 9207 issuer identifier, when the server sent one. */
  iss?: string;
}

/** Options of {@linkcode LoopbackReceiver.wait}. */
export interface WaitOptions {
  /** The `state` sent with the authorization request. */
  state: string;
  /** Give up after this long (ms). */
  timeoutMs: number;
  /** Aborting it (Ctrl-C) fails with InterruptedError. */
  signal?: AbortSignal;
}

const PAGE = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title>` +
  `<body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body>`;

/** A listener for one authorization redirect. */
export class LoopbackReceiver {
  /** The redirect URI to register and send: `http://127.0.0.1:PORT/callback`. */
  readonly redirectUrl: string;
  #server: Deno.HttpServer;
  #received: PromiseWithResolvers<URLSearchParams>;

  private constructor(
    server: Deno.HttpServer,
    port: number,
    received: PromiseWithResolvers<URLSearchParams>,
  ) {
    this.#server = server;
    this.redirectUrl = `http://127.0.0.1:${port}/callback`;
    this.#received = received;
  }

  /** Starts listening; `preferredPort` is tried first. */
  static start(preferredPort?: number): LoopbackReceiver {
    const received = Promise.withResolvers<URLSearchParams>();
    const handler = (request: Request): Response => {
      const url = new URL(request.url);
      if (url.pathname !== "/callback") return new Response("Not found", { status: 404 });
      received.resolve(url.searchParams);
      const ok = url.searchParams.has("code");
      return new Response(
        ok
          ? PAGE("Signed in", "jn has the authorization. You can close this tab.")
          : PAGE("Sign-in failed", "jn did not get an authorization. See the terminal."),
        { status: ok ? 200 : 400, headers: { "content-type": "text/html; charset=utf-8" } },
      );
    };
    const listen = (port: number) =>
      Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, handler);
    let server: Deno.HttpServer;
    try {
      server = listen(preferredPort ?? 0);
    } catch (error) {
      if (!(error instanceof Deno.errors.AddrInUse) || !preferredPort) throw error;
      server = listen(0);
    }
    const port = (server.addr as Deno.NetAddr).port;
    return new LoopbackReceiver(server, port, received);
  }

  /** Waits for the redirect and returns its code; checks `state`. */
  async wait(options: WaitOptions): Promise<CallbackParams> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new ConnectionError(
              `Sign-in timed out after ${Math.round(options.timeoutMs / 1000)}s`,
              { hint: "run the command again and finish signing in in the browser" },
            ),
          ),
        options.timeoutMs,
      );
    });
    const aborted = new Promise<never>((_, reject) => {
      if (options.signal?.aborted) reject(new InterruptedError());
      options.signal?.addEventListener("abort", () => reject(new InterruptedError()), {
        once: true,
      });
    });
    try {
      const params = await Promise.race([this.#received.promise, timeout, aborted]);
      return checkCallback(params, options.state);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Stops listening. */
  async close(): Promise<void> {
    await this.#server.shutdown().catch(() => {});
  }
}

function checkCallback(params: URLSearchParams, state: string): CallbackParams {
  const error = params.get("error");
  if (error) {
    // error_description comes from whoever sent the redirect; only the code is shown.
    throw new ConnectionError(`Sign-in was refused by the authorization server: ${error}`, {
      hint: "run 'jn auth login URL' to try again",
    });
  }
  if (params.get("state") !== state) {
    throw new ConnectionError("Sign-in failed: the redirect carried the wrong state", {
      hint: "another sign-in may have been in progress; run the command again",
    });
  }
  const code = params.get("code");
  if (!code) throw new ConnectionError("Sign-in failed: the redirect carried no code");
  return { code, iss: params.get("iss") ?? undefined };
}
