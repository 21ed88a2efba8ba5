/**
 * Host names a sandboxed server may reach (`sandbox.network` as a list,
 * `--sandbox-host`): `host` or `host:port`, a name or a bracketed IP
 * address. Pure and free of Node compatibility: the CLI checks
 * `--sandbox-host` with it on every start-up.
 *
 * @module
 */

import { UsageError } from "../errors.ts";

/** A host name, or a bracketed address, with an optional port. */
export const HOST: RegExp = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;

/** Validates a host list (comma-separated), as `--sandbox-host` gives it. */
export function parseHostList(text: string, flag = "--sandbox-host"): string[] {
  const hosts = text.split(",").map((host) => host.trim()).filter(Boolean);
  for (const host of hosts) {
    if (!HOST.test(host)) {
      throw new UsageError(`Invalid ${flag} "${host}"`, {
        hint: `give a host name, e.g. ${flag} api.example.com`,
      });
    }
  }
  return hosts;
}
