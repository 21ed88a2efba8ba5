/**
 * Answers to a server's questions given as data (`elicitAnswers`: the CLI's
 * `--elicit-answers JSON|@FILE|-`, a profile's `elicit_answers`), for runs
 * that no one watches: an agent's, a script's. Each form the server sends
 * (`elicitation/create`, form mode) is answered from them, validated against
 * the form's schema as a person's typed answer is: required fields, types,
 * bounds, formats, enums. What does not fit is declined — the server decides
 * what a decline means — and the caller is told why in one line
 * (`events.onNotice`); so is every accepted answer.
 *
 * The answers are one object for every question (each form takes the fields
 * it declares, the rest is ignored), or an array: the Nth question takes
 * the Nth object. A field left out takes the schema's default, if any. A URL
 * request is not a form: it goes to the caller's handler (none: declined).
 *
 * @module
 */

import { visibleLine } from "../output/visible.ts";
import { closest } from "../text/suggest.ts";
import type { ElicitationRequest, ElicitationResponse } from "../types.ts";
import {
  type Field,
  type FieldValue,
  formFields,
  parseAnswer,
  type Parsed,
} from "./elicit_fields.ts";

/** Answers to every question (an object), or to each question in turn (an array of objects). */
export type ElicitAnswers = Record<string, unknown> | Record<string, unknown>[];

/**
 * An elicitation handler that answers forms from `answers` and hands URL
 * requests to `fallback` (declined without one); `notice` hears one line
 * per question.
 */
export function answeringFrom(
  answers: ElicitAnswers,
  fallback: ((request: ElicitationRequest) => Promise<ElicitationResponse>) | undefined,
  notice: ((message: string) => void | Promise<void>) | undefined,
): (request: ElicitationRequest) => Promise<ElicitationResponse> {
  let asked = 0;
  return async (request) => {
    if (request.mode === "url") return fallback ? await fallback(request) : { action: "decline" };
    const index = asked++;
    const { response, message } = answerForm(request, answers, index);
    await notice?.(message);
    return response;
  };
}

/**
 * The response to one form (the `index`th question) from the answers, and
 * the line that says what happened.
 *
 * @example
 * ```ts
 * import { answerForm } from "@jn/jn";
 *
 * const form = {
 *   mode: "form" as const,
 *   message: "Who are you?",
 *   requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
 * };
 * answerForm(form, { name: "Ada" }).response; // { action: "accept", content: { name: "Ada" } }
 * answerForm(form, {}).message; // 'declined the server\'s question "Who are you?": … name is required'
 * ```
 */
export function answerForm(
  request: ElicitationRequest,
  answers: ElicitAnswers,
  index = 0,
): { response: ElicitationResponse; message: string } {
  const question = `"${visibleLine(String(request.message ?? "")).slice(0, 120)}"`;
  const given = Array.isArray(answers) ? answers[index] : answers;
  if (given === undefined) {
    return {
      response: { action: "decline" },
      message: `declined the server's question ${question}: the answers hold ${
        (answers as unknown[]).length
      } objects, this is question ${index + 1}`,
    };
  }
  const fields = formFields(request.requestedSchema);
  const content: Record<string, FieldValue> = {};
  const problems: string[] = [];
  const unused = Object.keys(given).filter((key) => !fields.some((f) => f.name === key));
  for (const field of fields) {
    const value = given[field.name];
    if (value === undefined || value === null) {
      if (field.default !== undefined) content[field.name] = field.default;
      else if (field.required) {
        const near = closest(field.name, unused);
        problems.push(`${field.name} is required${near ? ` (did you mean "${near}"?)` : ""}`);
      }
      continue;
    }
    const fit = fitAnswer(field, value);
    if (fit.ok) {
      if (fit.value !== undefined) content[field.name] = fit.value;
    } else problems.push(`${field.name} ${fit.message} (got ${shown(value)})`);
  }
  if (problems.length > 0) {
    return {
      response: { action: "decline" },
      message: `declined the server's question ${question}: the answers do not fit its form: ${
        visibleLine(problems.join("; "))
      }`,
    };
  }
  const names = Object.keys(content);
  return {
    response: { action: "accept", content },
    message: `answered the server's question ${question} from the given answers${
      names.length > 0 ? ` (${visibleLine(names.join(", "))})` : ""
    }`,
  };
}

/** A JSON value as an answer to `field`: typed values checked, text parsed as if typed. */
export function fitAnswer(field: Field, value: unknown): Parsed {
  if (typeof value === "string") {
    const exact = field.choices?.find((choice) => choice.value === value);
    if (field.kind === "choice" && exact) return { ok: true, value: exact.value };
    if (value.trim() === "" && !field.required) return { ok: true, value: undefined };
    const parsed = parseAnswer({ ...field, default: undefined }, value);
    return !parsed.ok && field.kind === "choice"
      ? { ok: false, message: `must be one of ${choiceList(field)}` }
      : parsed;
  }
  switch (field.kind) {
    case "boolean":
      return typeof value === "boolean"
        ? { ok: true, value }
        : { ok: false, message: "must be true or false" };
    case "number":
    case "integer":
      return typeof value === "number"
        ? parseAnswer(field, String(value))
        : { ok: false, message: `must be ${field.kind === "integer" ? "an integer" : "a number"}` };
    case "multi": {
      if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
        return { ok: false, message: "must be an array of strings" };
      }
      const unknown = value.find((v) => !field.choices?.some((c) => c.value === v));
      if (unknown !== undefined) {
        return { ok: false, message: `has "${unknown}", not one of ${choiceList(field)}` };
      }
      return parseAnswer(field, value.join(","));
    }
    case "choice":
      return { ok: false, message: `must be one of ${choiceList(field)}` };
    case "string":
      return { ok: false, message: "must be a string" };
  }
}

function choiceList(field: Field): string {
  return (field.choices ?? []).map((c) => JSON.stringify(c.value)).join(", ");
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
