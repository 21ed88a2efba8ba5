/**
 * Every type of record jn writes on stdout (the `type` field of each NDJSON
 * line), with its main fields and what emits it: the list `jn agent-guide`
 * teaches and README's record table shows (tests/agents/agent_guide_test.ts
 * holds them together). No imports.
 *
 * @module
 */

/** One record type. */
export interface RecordType {
  /** The value of `type`. */
  type: string;
  /** Its main fields besides `type`. */
  fields: string;
  /** What emits it. */
  from: string;
}

/** Every record type, in the order a reader meets them. */
export const RECORD_TYPES: readonly RecordType[] = [
  {
    type: "tool_result",
    fields: "tool, content_type, text | data+mimeType | resource…, isError?",
    from: "each content item of a tool's result",
  },
  { type: "structured_result", fields: "tool, data", from: "a result's structuredContent" },
  { type: "resource_content", fields: "uri, mimeType, text | blob", from: "?resource=URI" },
  {
    type: "prompt_message",
    fields: "prompt, role, content_type, text…",
    from: "?prompt=NAME",
  },
  {
    type: "tool",
    fields: "name, description, inputSchema, outputSchema?",
    from: "?list=tools, jn mcp tools",
  },
  { type: "resource", fields: "uri, name, mimeType", from: "?list=resources" },
  { type: "resource_template", fields: "uriTemplate, name", from: "?list=templates" },
  { type: "prompt", fields: "name, description, arguments", from: "?list=prompts" },
  {
    type: "completion",
    fields: "prompt | resource, argument, value",
    from: "jn complete",
  },
  {
    type: "error",
    fields: "input, kind, error",
    from: "a failed input line of jn put (the run goes on)",
  },
  {
    type: "task",
    fields: "tool, taskId, status, source",
    from: "--detach (jn cat SOURCE resumes it)",
  },
  {
    type: "truncated",
    fields: "max_bytes, records, bytes",
    from: "--max-bytes: what was cut",
  },
  { type: "match", fields: "source, kind, name, field, text", from: "jn grep" },
  {
    type: "tool_help",
    fields: "source, name, signature, description, inputSchema, profile",
    from: "jn help @p/tool --format json",
  },
  { type: "skill", fields: "name, description, uri, files", from: "jn skills SOURCE" },
  {
    type: "skill_file",
    fields: "skill, path, digest, text | blob | file",
    from: "jn skills SOURCE NAME",
  },
];
