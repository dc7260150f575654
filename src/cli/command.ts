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
    throw new LoreError('usage', (error as Error).message.split('\n')[0] ?? 'bad arguments', {
      hint: `run \`lore ${verb} --help\` for the options`,
    });
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
