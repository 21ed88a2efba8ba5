/**
 * The shape of one row of jn's flag table (lib/cli/table/flags.ts) and the
 * type of the values a command's flags parse into. A flag names the field
 * of the options it sets (`key`: a field of the library's options where
 * one exists, e.g. `timeoutMs` of `OpenOptions`) and how a given value
 * joins that field (`apply`): parsed, checked and stored in one step, so a
 * flag exists in one shape below the table. The parser
 * (lib/cli/parse.ts), the help (lib/cli/help.ts) and the completion scripts
 * (lib/cli/completion_spec.ts) read nothing else.
 *
 * @module
 */

/** What a shell may complete as a flag's value. */
export type ValueCompletion = "path" | "source" | "none";

/**
 * One flag. `F` is the type of the field it sets; several flags may set one
 * field (`--sandbox-read` and `--sandbox-net` both shape `sandbox`).
 */
export interface FlagDef<K extends string = string, F = unknown> {
  /** The long name without dashes: `timeout` for `--timeout`. */
  readonly long: string;
  /** A one-letter name without the dash: `n` for `-n`. */
  readonly short?: string;
  /** The value's placeholder in help (`duration`); absent for a switch, which takes no value. */
  readonly value?: string;
  /** The field of the command's options this flag sets. */
  readonly key: K;
  /** One line of help. */
  readonly help: string;
  /**
   * Joins a given value (a switch gives `true`) to the field's current
   * value and returns the new one; throws a UsageError for a bad value.
   * `flag` is the spelling the user typed (`--timeout`, `-n`), for messages.
   */
  readonly apply: (current: F | undefined, value: string, flag: string) => F;
  /** The field's value when the flag is not given (from the layer that owns it). */
  readonly default?: F;
  /** How help shows the default (`60s`); absent: help shows `default` as JSON, if any. */
  readonly shown?: string;
  /** Whether the flag may be given more than once (help says "repeatable"). */
  readonly repeatable?: boolean;
  /** The values it accepts, when they are a fixed set (help, completion, did-you-mean). */
  readonly choices?: readonly string[];
  /** What a shell completes as its value (default: nothing; `choices` when given). */
  readonly completes?: ValueCompletion;
  /** Left out of help and completion. */
  readonly hidden?: boolean;
  /**
   * The value may also be `@FILE` or `-` (stdin): the CLI reads that text
   * before the command runs and applies it in the value's place
   * (lib/cli/flag_inputs.ts). For JSON values, which never start so.
   */
  readonly input?: true;
}

/**
 * A value of an `input` flag still to be read: `@FILE` or `-`, as the
 * parser found it. lib/cli/flag_inputs.ts replaces it with the applied
 * text before the command's module sees the options.
 */
export class PendingInput {
  constructor(
    /** `@FILE` or `-`. */
    readonly from: string,
    /** The flag it is the value of. */
    readonly flag: AnyFlag,
    /** How the user spelled the flag. */
    readonly spelled: string,
  ) {}
}

/** Any flag, whatever field it sets. */
// deno-lint-ignore no-explicit-any
export type AnyFlag = FlagDef<string, any>;

/** Declares a flag, keeping its literal key and field type for {@linkcode Values}. */
export function flag<const D extends AnyFlag>(def: D): D {
  return def;
}

/** The field type a flag sets. */
type FieldOf<D> = D extends { apply(current: never, value: string, flag: string): infer F } ? F
  : never;

/** The keys of the flags in `Fs` that have a default (always set after parsing). */
type DefaultedKeys<Fs extends readonly AnyFlag[]> = Extract<
  Fs[number],
  { default: unknown }
>["key"];

/**
 * The options object a list of flags parses into: one field per key,
 * present when the flag has a default, optional otherwise.
 */
export type Values<Fs extends readonly AnyFlag[]> =
  & { -readonly [K in DefaultedKeys<Fs>]: FieldOf<Extract<Fs[number], { key: K }>> }
  & {
    -readonly [K in Exclude<Fs[number]["key"], DefaultedKeys<Fs>>]?: FieldOf<
      Extract<Fs[number], { key: K }>
    >;
  };

/** A switch: `true` when given. */
export function setTrue(): boolean {
  return true;
}

/** A repeatable flag's list: each use appends its (checked) value. */
export function append<T>(check: (text: string, flag: string) => T) {
  return (current: T[] | undefined, value: string, flag: string): T[] => [
    ...(current ?? []),
    check(value, flag),
  ];
}

/** A value kept as typed (for {@linkcode append}). */
export function asIs(value: string): string {
  return value;
}

/** A flag whose value is kept as typed. */
export function text(_current: string | undefined, value: string): string {
  return value;
}
