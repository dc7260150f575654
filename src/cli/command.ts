/**
 * What a CLI verb is: a spec (usage, options, help text) and a `run` that computes data and its
 * text rendering. Printing, `--json` and exit codes are decided once, in main.ts.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { LoreError } from '../core/errors.js';

export type OptionSpec = {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
  /** Placeholder shown in help: `--tag T`. */
  value?: string;
  description: string;
};

export type CommandSpec = {
  usage: string;
  description: string;
  options: Record<string, OptionSpec>;
  /** Number of positional arguments accepted. */
  positionals: { min: number; max: number; names: string };
  examples?: string[];
  /** Read verbs take --json; write verbs take it too, to print what they did as data. */
  json: boolean;
};

export type CommandContext = {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `--root DIR`, when given. */
  root: string | undefined;
  json: boolean;
  isTTY: boolean;
  now(): number;
  /** Notes for people (progress, warnings): stderr, never mixed with data. */
  note(line: string): void;
  readStdin(): Promise<string>;
  /**
   * Runs another verb in this process with its output captured (`lore demo`'s tour). Passed in by
   * main.ts, so a command never imports the verb table that imports it.
   */
  runCommand(
    argv: readonly string[],
    cwd: string,
    env: NodeJS.ProcessEnv,
  ): Promise<{ output: string; code: number }>;
};

export type CommandOutput = {
  data: unknown;
  text: string;
  /** 1 when the command ran but found problems (lore check). Default 0. */
  exitCode?: 0 | 1;
};

export type ParsedArgs = {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
};

export type Command = {
  spec: CommandSpec;
  run(ctx: CommandContext, args: ParsedArgs): Promise<CommandOutput>;
};

export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  root: {
    type: 'string',
    value: 'DIR',
    description: 'repository root holding .lore/ (default: search upward from the working directory)',
  },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
};

export const JSON_OPTION: Record<string, OptionSpec> = {
  json: { type: 'boolean', description: 'print the result as JSON on stdout' },
};

export function allOptions(spec: CommandSpec): Record<string, OptionSpec> {
  return { ...spec.options, ...(spec.json ? JSON_OPTION : {}), ...GLOBAL_OPTIONS };
}

/** Edit distance between two short strings (option names), a swap of two neighbours counting one. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1)
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  return d[a.length]![b.length]!;
}

/** The option a mistyped one most likely meant: a close spelling, or one it is the start of. */
export function closestOption(typed: string, names: readonly string[]): string | undefined {
  const name = typed.replace(/^-+/, '').split('=')[0] ?? '';
  if (name === '') return undefined;
  const scored = names
    .map((candidate) => ({ candidate, d: candidate.startsWith(name) ? 0 : distance(name, candidate) }))
    .filter(({ d, candidate }) => d <= Math.max(1, Math.floor(Math.min(name.length, candidate.length) / 3)))
    .sort((x, y) => x.d - y.d || x.candidate.localeCompare(y.candidate));
  return scored[0]?.candidate;
}

/**
 * Node's parseArgs errors in lore's words: an unknown option with the one it probably meant, a
 * value that is missing or starts with a dash (`--limit -1`) with how to pass it.
 */
function argumentError(
  verb: string,
  options: Record<string, OptionSpec>,
  error: Error & { code?: string },
): LoreError {
  const help = `run \`lore ${verb} --help\` for the options`;
  const flag = /'(-{1,2}[^'\s]+)/.exec(error.message)?.[1];
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag !== undefined) {
    const meant = flag.startsWith('--') ? closestOption(flag, Object.keys(options)) : undefined;
    return new LoreError('usage', `unknown option ${flag}`, {
      hint: meant === undefined ? help : `did you mean --${meant}? (${help})`,
    });
  }
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && flag !== undefined) {
    if (/argument is ambiguous/.test(error.message))
      return new LoreError('usage', `${flag} needs a value, and the next argument starts with a dash`, {
        hint: `to pass a value that starts with a dash, write ${flag}=VALUE`,
      });
    if (/argument missing/.test(error.message))
      return new LoreError('usage', `${flag} needs a value`, { hint: help });
    if (/does not take an argument/.test(error.message))
      return new LoreError('usage', `${flag} is a switch and takes no value`, {
        hint: `write ${flag} alone`,
      });
  }
  return new LoreError('usage', error.message.split('\n')[0] ?? 'bad arguments', { hint: help });
}

export function parseCommandArgs(verb: string, spec: CommandSpec, argv: readonly string[]): ParsedArgs {
  const options = allOptions(spec);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: Object.fromEntries(
        Object.entries(options).map(([name, option]) => [
          name,
          {
            type: option.type,
            ...(option.multiple ? { multiple: true } : {}),
            ...(option.short ? { short: option.short } : {}),
          },
        ]),
      ),
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw argumentError(verb, options, error as Error & { code?: string });
  }
  const values = parsed.values as ParsedArgs['values'];
  if (values.help !== true) {
    const count = parsed.positionals.length;
    if (count < spec.positionals.min || count > spec.positionals.max) {
      const expected =
        spec.positionals.max === 0
          ? 'no positional arguments'
          : spec.positionals.min === spec.positionals.max
            ? `${spec.positionals.min} argument(s): ${spec.positionals.names}`
            : `${spec.positionals.names}`;
      throw new LoreError(
        'usage',
        `lore ${verb} takes ${expected}; got ${count === 0 ? 'none' : parsed.positionals.join(' ')}`,
        {
          hint: `usage: ${spec.usage}`,
        },
      );
    }
  }
  return { values, positionals: parsed.positionals };
}

export function renderHelp(verb: string, summary: string, spec: CommandSpec): string {
  const lines = [`lore ${verb}: ${summary}`, '', `usage: ${spec.usage}`, ''];
  if (spec.description) lines.push(spec.description, '');
  const options = allOptions(spec);
  const rows = Object.entries(options).map(([name, option]) => {
    const flag = `${option.short ? `-${option.short}, ` : ''}--${name}${option.value ? ` ${option.value}` : ''}${option.multiple ? '...' : ''}`;
    return [flag, option.description] as const;
  });
  const width = Math.min(30, Math.max(...rows.map(([flag]) => flag.length)));
  lines.push('options:');
  for (const [flag, description] of rows) {
    lines.push(`  ${flag.padEnd(width)}  ${description}`);
  }
  if (spec.examples && spec.examples.length > 0) {
    lines.push('', 'examples:', ...spec.examples.map((example) => `  ${example}`));
  }
  return `${lines.join('\n')}\n`;
}

/** Typed getters over parsed values. */
export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' ? value : undefined;
}

export function listOption(args: ParsedArgs, name: string): string[] | undefined {
  const value = args.values[name];
  if (value === undefined) return undefined;
  return (Array.isArray(value) ? value : [value]).map(String);
}

/**
 * `--path` values (repeatable) made absolute from `cwd`, each one checked to exist: a typo would
 * otherwise read nothing and report an empty result as if it were the answer.
 */
export function existingPaths(
  args: ParsedArgs,
  name: string,
  cwd: string,
): { path: string; shownAs: string }[] {
  return (listOption(args, name) ?? []).map((given) => {
    const path = resolve(cwd, given);
    if (!existsSync(path))
      throw new LoreError('not-found', `--${name} ${given}: no such file or folder (${path})`, {
        hint: `check the path: --${name} takes a folder (or a file) of agent transcripts`,
      });
    return { path, shownAs: given };
  });
}

export function flagOption(args: ParsedArgs, name: string): boolean {
  return args.values[name] === true;
}

export function numberOption(
  args: ParsedArgs,
  name: string,
  check: { integer?: boolean; min?: number; max?: number } = {},
): number | undefined {
  const raw = stringOption(args, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  const bad =
    raw.trim() === '' ||
    !Number.isFinite(value) ||
    (check.integer === true && !Number.isInteger(value)) ||
    (check.min !== undefined && value < check.min) ||
    (check.max !== undefined && value > check.max);
  if (bad) {
    const range =
      check.min !== undefined && check.max !== undefined
        ? ` from ${check.min} to ${check.max}`
        : check.min !== undefined
          ? ` >= ${check.min}`
          : '';
    throw new LoreError(
      'usage',
      `--${name} must be ${check.integer ? 'an integer' : 'a number'}${range}, got "${raw}"`,
    );
  }
  return value;
}

export function choiceOption<T extends string>(
  args: ParsedArgs,
  name: string,
  choices: readonly T[],
): T | undefined {
  const raw = stringOption(args, name);
  if (raw === undefined) return undefined;
  if (!(choices as readonly string[]).includes(raw)) {
    throw new LoreError('usage', `--${name} must be one of ${choices.join(', ')}; got "${raw}"`);
  }
  return raw as T;
}
