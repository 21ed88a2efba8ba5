/**
 * The routing tables of one downstream session: which source answers a
 * tool, a prompt, a resource URI or a task, and under which name.
 *
 * Guarantees: a tool or prompt is found only by the name the host was
 * offered (never by parsing it); a withheld tool is known as withheld, not
 * as unknown, so its call is refused with the reason; a resource URI goes
 * to the one source that claims it (lists it, or has a template matching
 * it), to none when several claim it, else to the one source whose listed
 * URIs share its scheme, else to no one (the caller then asks each source
 * in turn). Rebuilding a source's part of a table leaves the other sources'
 * parts as they are.
 *
 * @module
 */

import { UriTemplate } from "@modelcontextprotocol/server";
import type { JsonObject } from "../types.ts";
import { offeredName } from "./names.ts";
import type { ToolAlias } from "./types.ts";

/** Where an offered name leads. */
export interface Route {
  /** The source's namespace. */
  source: string;
  /** The server's own name. */
  name: string;
  /** For a tool alias: the arguments it fills in. */
  defaults?: JsonObject;
}

/** Offered names of one kind (tools, prompts) for every source. */
export class NameTable {
  #bySource = new Map<string, Map<string, Route>>();
  #withheld = new Map<string, Map<string, string>>();
  #namespaced: boolean;
  #maxLength?: number;

  constructor(options: { namespaced: boolean; maxLength?: number }) {
    this.#namespaced = options.namespaced;
    this.#maxLength = options.maxLength;
  }

  /** The name the host sees for `name` of `source`. */
  offered(source: string, name: string): string {
    return offeredName(source, name, { namespaced: this.#namespaced, maxLength: this.#maxLength });
  }

  /**
   * Replaces a source's entries: its offered items (server names) as the host
   * sees them, with aliases and withheld names. Returns the items renamed.
   */
  set<T extends { name: string }>(
    source: string,
    items: readonly T[],
    extra: { aliases?: Record<string, ToolAlias>; withheld?: { name: string; reason: string }[] } =
      {},
  ): T[] {
    const routes = new Map<string, Route>();
    const renamed: T[] = [];
    for (const item of items) {
      if (typeof item?.name !== "string") continue;
      const shown = this.offered(source, item.name);
      if (routes.has(shown)) continue;
      const alias = extra.aliases?.[item.name];
      routes.set(shown, {
        source,
        name: alias?.tool ?? item.name,
        ...(alias?.defaults ? { defaults: alias.defaults } : {}),
      });
      renamed.push(shown === item.name ? item : { ...item, name: shown });
    }
    this.#bySource.set(source, routes);
    const withheld = new Map<string, string>();
    for (const entry of extra.withheld ?? []) {
      withheld.set(this.offered(source, entry.name), entry.reason);
    }
    this.#withheld.set(source, withheld);
    return renamed;
  }

  /** Items renamed as the host sees them, without recording them (a stale listing). */
  offeredTools<T extends { name: string }>(source: string, items: readonly T[]): T[] {
    return items.filter((item) => typeof item?.name === "string").map((item) => {
      const shown = this.offered(source, item.name);
      return shown === item.name ? item : { ...item, name: shown };
    });
  }

  /** Forgets a source's entries (its list changed). */
  clear(source: string): void {
    this.#bySource.delete(source);
    this.#withheld.delete(source);
  }

  /** Whether the source's entries are known. */
  has(source: string): boolean {
    return this.#bySource.has(source);
  }

  /** Where an offered name leads, if anywhere. */
  route(shown: string): Route | undefined {
    for (const routes of this.#bySource.values()) {
      const route = routes.get(shown);
      if (route) return route;
    }
    return undefined;
  }

  /** Why an offered-looking name is withheld, if it is. */
  withheld(shown: string): string | undefined {
    for (const withheld of this.#withheld.values()) {
      const reason = withheld.get(shown);
      if (reason !== undefined) return reason;
    }
    return undefined;
  }
}

/**
 * Which source answers a resource URI. A source **claims** a URI when it
 * lists it or one of its templates matches it; every server is untrusted,
 * so a claim is no proof of ownership, and a URI two sources claim goes to
 * neither (docs/serve.md, "Resources keep their URIs"): a hostile source
 * that lists another's template URIs, or offers a template that matches
 * another's listed resources, never answers for it.
 */
export class ResourceRoutes {
  /** Per source, the URIs it listed (its latest listing). */
  #listed = new Map<string, Set<string>>();
  /** Per source, its resource templates (those that parse). */
  #templates = new Map<string, UriTemplate[]>();

  /** Records a source's listed resources (all its pages: they replace what it listed before). */
  setResources(source: string, resources: readonly unknown[]): void {
    const uris = new Set<string>();
    for (const resource of resources) {
      const uri = (resource as { uri?: unknown })?.uri;
      if (typeof uri === "string") uris.add(uri);
    }
    this.#listed.set(source, uris);
  }

  /** Records a source's resource templates (all its pages: they replace its earlier ones). */
  setTemplates(source: string, templates: readonly unknown[]): void {
    const parsed: UriTemplate[] = [];
    for (const template of templates) {
      const text = (template as { uriTemplate?: unknown })?.uriTemplate;
      if (typeof text !== "string") continue;
      try {
        parsed.push(new UriTemplate(text));
      } catch { /* a template the SDK cannot parse routes nothing */ }
    }
    this.#templates.set(source, parsed);
  }

  /** Forgets what a source listed (its resource list changed). */
  clear(source: string): void {
    this.#listed.delete(source);
    this.#templates.delete(source);
  }

  /** Whether the resources and templates of every one of `sources` are known. */
  knows(sources: readonly string[]): boolean {
    return sources.every((source) => this.#listed.has(source) && this.#templates.has(source));
  }

  /** The sources that claim `uri` (list it, or have a template matching it), sorted. */
  claimants(uri: string): string[] {
    const out = new Set<string>();
    for (const [source, uris] of this.#listed) if (uris.has(uri)) out.add(source);
    for (const [source, templates] of this.#templates) {
      if (templates.some((template) => matches(template, uri))) out.add(source);
    }
    return [...out].sort();
  }

  /** Why `uri` is read from no source, when several claim it (a message naming them). */
  conflict(uri: string): string | undefined {
    const claimants = this.claimants(uri);
    if (claimants.length < 2) return undefined;
    const names = claimants.map((name) => `"${name}"`).join(" and ");
    return `The resource ${uri} is claimed by several sources (${names}): ` +
      "jn serve reads it from none";
  }

  /**
   * The source that answers `uri`, when one can be told: the one source
   * that claims it; when none does, the one source whose listed URIs share
   * its scheme. Undefined when several claim it, or nothing tells.
   */
  route(uri: string): string | undefined {
    const claimants = this.claimants(uri);
    if (claimants.length > 0) return claimants.length === 1 ? claimants[0] : undefined;
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(uri)?.[1]?.toLowerCase();
    if (scheme === undefined) return undefined;
    const owners = new Set<string>();
    for (const [source, uris] of this.#listed) {
      for (const known of uris) {
        if (known.toLowerCase().startsWith(`${scheme}:`)) owners.add(source);
      }
    }
    return owners.size === 1 ? [...owners][0] : undefined;
  }
}

function matches(template: UriTemplate, uri: string): boolean {
  try {
    return template.match(uri) !== null;
  } catch {
    return false;
  }
}
