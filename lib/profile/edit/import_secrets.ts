/**
 * Literal secrets in an editor's server entry are not copied into a profile:
 * each is replaced by a `${VAR}` reference and a note says which variable to
 * set. The value itself is never printed; it stays in the editor's file.
 *
 * A secret is an `env` value or header whose name says token, key, secret,
 * password…; a value that looks like a known token (`ghp_…`, `sk-…`); the
 * value after a `--token`/`--api-key` argument; and in URLs (the server's
 * `url`, an argument or an `env` value that is one) the user-info (`https://user:TOKEN@…`:
 * the password, or a lone user name) and query parameters named like a key,
 * token, secret or signature. A URL keeps its shape: `https://user:${VAR}@host`
 * works as before, since the HTTP client sends user-info as Basic
 * authentication, with the value substituted (and redacted from messages).
 *
 * @module
 */

const SECRET_NAME =
  /token|secret|passw(or)?d|api[-_]?key|access[-_]?key|private[-_]?key|credential|auth/i;
const SECRET_QUERY = /^(key|sig|signature)$/i;
const SECRET_VALUE = /^(sk-|sk_|ghp_|gho_|ghs_|github_pat_|glpat-|xox[abpr]-|AKIA|AIza|ctx7sk-)/;
const URL_START = /^https?:\/\//i;
const ANY_URL = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Replaces secret values of an `env` or `headers` map by `${VAR}` references;
 * in an `env` value that is a URL (`DATABASE_URL=postgres://u:PASSWORD@…`),
 * only its credentials.
 */
export function moveSecrets(
  map: Record<string, string>,
  options: { notes: string[]; varFor: (key: string) => string; what: "env" | "header" },
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(map)) {
    const secret = !value.includes("${") && value !== "" &&
      (SECRET_NAME.test(key) || SECRET_VALUE.test(value.replace(/^(Bearer|Basic|token)\s+/i, "")));
    if (!secret) {
      out[key] = options.what === "env" && ANY_URL.test(value)
        ? moveUrlSecrets(value, options.varFor(key), options.notes)
        : value;
      continue;
    }
    const variable = options.varFor(key);
    const scheme = /^(Bearer|Basic|token)\s+/i.exec(value)?.[0] ?? "";
    out[key] = `${scheme}\${${variable}}`;
    options.notes.push(
      `set ${variable} before use: the literal value of ${options.what} "${key}" stays in the config, jn did not copy it`,
    );
  }
  return out;
}

/** Replaces secret arguments (and secrets inside URL arguments) by `${VAR}` references. */
export function moveArgSecrets(args: string[], server: string, notes: string[]): string[] {
  const replace = (label: string, variable: string) => {
    notes.push(
      `set ${variable} before use: the literal value of argument ${label} stays in the config, jn did not copy it`,
    );
    return `\${${variable}}`;
  };
  return args.map((arg, i) => {
    if (URL_START.test(arg)) return moveUrlSecrets(arg, `${server}_url`, notes);
    const inline = /^(--?[A-Za-z0-9-]+)=(.+)$/.exec(arg);
    if (inline) {
      const [, flag, value] = inline;
      if (URL_START.test(value)) return `${flag}=${moveUrlSecrets(value, `${server}_url`, notes)}`;
      if (value.includes("${") || (!SECRET_NAME.test(flag) && !SECRET_VALUE.test(value))) {
        return arg;
      }
      return `${flag}=${replace(flag, envName(`${server}_${flag}`))}`;
    }
    if (arg.startsWith("-") || arg.includes("${")) return arg;
    const previous = i > 0 ? args[i - 1] : "";
    if (/^--?[A-Za-z0-9-]+$/.test(previous) && SECRET_NAME.test(previous)) {
      return replace(previous, envName(`${server}_${previous}`));
    }
    return SECRET_VALUE.test(arg) ? replace(String(i + 1), envName(`${server}_arg_${i + 1}`)) : arg;
  });
}

/**
 * Moves the credentials of a URL into `${VAR}` references named after
 * `prefix`: the user-info's password (or a lone user name, which is then the
 * token) and secret query parameters. Anything already a `${…}` reference
 * stays.
 *
 * @example
 * moveUrlSecrets("https://me:s3cret@h.example/mcp?api_key=k1&x=2", "h_url", []);
 * // "https://me:${H_URL_PASSWORD}@h.example/mcp?api_key=${H_URL_API_KEY}&x=2"
 */
export function moveUrlSecrets(url: string, prefix: string, notes: string[]): string {
  const parts = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/i.exec(url);
  if (!parts) return url;
  const [, scheme, authority, path, query = "", fragment = ""] = parts;
  const move = (what: string, variable: string) => {
    notes.push(
      `set ${variable} before use: the literal ${what} in the URL stays in the config, jn did not copy it`,
    );
    return `\${${variable}}`;
  };
  let host = authority;
  const at = authority.lastIndexOf("@");
  if (at !== -1) {
    const userInfo = authority.slice(0, at);
    const colon = userInfo.indexOf(":");
    const user = colon === -1 ? userInfo : userInfo.slice(0, colon);
    const password = colon === -1 ? undefined : userInfo.slice(colon + 1);
    let info = userInfo;
    if (password !== undefined && password !== "" && !password.includes("${")) {
      info = `${user}:${move("password", envName(`${prefix}_password`))}`;
    } else if (
      password === undefined && user !== "" && !user.includes("${") && URL_START.test(scheme)
    ) {
      // `https://TOKEN@host` (GitHub's form); a lone user of `postgres://app@db` is a name.
      info = move("user name (a token)", envName(`${prefix}_token`));
    }
    host = `${info}@${authority.slice(at + 1)}`;
  }
  const params = query === "" ? "" : "?" + query.slice(1).split("&").map((pair) => {
    const eq = pair.indexOf("=");
    if (eq <= 0) return pair;
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const name = safeDecode(key);
    const secret = value !== "" && !value.includes("${") &&
      (SECRET_NAME.test(name) || SECRET_QUERY.test(name) || SECRET_VALUE.test(safeDecode(value)));
    return secret ? `${key}=${move(`value of "${name}"`, envName(`${prefix}_${name}`))}` : pair;
  }).join("&");
  return `${scheme}${host}${path}${params}${fragment}`;
}

/** `context7 api-key` → `CONTEXT7_API_KEY`. */
export function envName(text: string): string {
  const name = text.replace(/[^A-Za-z0-9]+/g, "_").replace(/^_+|_+$/g, "").toUpperCase();
  return /^[0-9]/.test(name) ? `_${name}` : name || "SECRET";
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll("+", " "));
  } catch {
    return text;
  }
}
