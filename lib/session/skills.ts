/**
 * The requests of the skills extension (SEP-2640, `io.modelcontextprotocol/skills`)
 * through the SDK client, which has no API for them: `skills/list` (one page)
 * and `skills/get`, each sent with `client.request()` and a result check of
 * jn's own (a Standard Schema, like call_result_schema.ts). A skill's files
 * are ordinary resources, read with `resources/read`.
 *
 * The checks here are only the shape a result needs to be walked (`skills`
 * an array, `nextCursor` a string, `skill` an object): whether an entry is
 * valid, and whether what a server serves matches it, is lib/client's policy
 * (lib/client/skill_entry.ts, skill_verify.ts). The requests are sent only
 * when asked: nothing here lists or reads on connect.
 *
 * @module
 */

import type { Client, RequestOptions, StandardSchemaV1 } from "@modelcontextprotocol/client";
import type { SessionSkills, SkillsPage } from "./types.ts";

/** How a request is sent: the session's bounded request, with its errors translated. */
export type SkillRequestRunner = <T>(
  label: string,
  run: (options: RequestOptions) => Promise<T>,
) => Promise<T>;

type Issue = { message: string; path?: PropertyKey[] };

function schema<T>(
  check: (result: Record<string, unknown>) => Issue[],
  pick: (
    result: Record<string, unknown>,
  ) => T,
): StandardSchemaV1<unknown, T> {
  return {
    "~standard": {
      version: 1,
      vendor: "jn",
      validate(value: unknown) {
        if (typeof value !== "object" || value === null || Array.isArray(value)) {
          return { issues: [{ message: "the result is not an object" }] };
        }
        const result = value as Record<string, unknown>;
        const issues = check(result);
        return issues.length > 0 ? { issues } : { value: pick(result) };
      },
    },
  };
}

/** A `skills/list` result: its entries as sent, and the cursor of the next page. */
const LIST_RESULT = schema<SkillsPage>(
  (result) => {
    const issues: Issue[] = [];
    if (!Array.isArray(result.skills)) {
      issues.push({ message: "skills is not an array", path: ["skills"] });
    }
    if (result.nextCursor !== undefined && typeof result.nextCursor !== "string") {
      issues.push({ message: "nextCursor is not a string", path: ["nextCursor"] });
    }
    return issues;
  },
  (result) => ({
    skills: result.skills as unknown[],
    ...(typeof result.nextCursor === "string" ? { nextCursor: result.nextCursor } : {}),
  }),
);

/** A `skills/get` result, as its entry. */
const GET_RESULT = schema<unknown>(
  (result) =>
    typeof result.skill === "object" && result.skill !== null && !Array.isArray(result.skill)
      ? []
      : [{ message: "skill is not an object", path: ["skill"] }],
  (result) => result.skill,
);

/** The skills requests of one SDK client. */
export class SdkSkills implements SessionSkills {
  #client: Client;
  #request: SkillRequestRunner;

  constructor(client: Client, request: SkillRequestRunner) {
    this.#client = client;
    this.#request = request;
  }

  list(cursor?: string): Promise<SkillsPage> {
    const params = cursor === undefined ? {} : { cursor };
    return this.#request(
      "skills/list",
      (o) => this.#client.request({ method: "skills/list", params }, LIST_RESULT, o),
    );
  }

  get(uri: string): Promise<unknown> {
    return this.#request(
      `skills/get "${uri}"`,
      (o) => this.#client.request({ method: "skills/get", params: { uri } }, GET_RESULT, o),
    );
  }
}
