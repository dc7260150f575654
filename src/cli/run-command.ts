/**
 * Runs one verb, once its module is found: parses its arguments, prints its help, data (`--json`)
 * or text, and decides the exit code: 0 ok, 1 user or data error, 2 usage, 70 internal error.
 * main.ts finds the verb for every command; fast-cli.ts for the few that answer from the CommonJS
 * bundle. Neither the verb table nor any verb module is imported here.
 */
import { isLoreError } from '../core/errors.js';
import { parseCommandArgs, renderHelp } from './command.js';
import type { Command, CommandContext } from './command.js';
import { markStage } from './stage-marks.js';

export const EXIT = { ok: 0, error: 1, usage: 2, internal: 70 } as const;

export type Io = {
  argv: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  isTTY: boolean;
  readStdin: () => Promise<string>;
};

/** A verb: its one-line summary (`lore --help`, the verb's help) and its module, loaded on use. */
export type VerbEntry = { summary: string; load: () => Promise<{ command: Command }> };

/** What a command's result prints on stdout: its data as JSON with `--json`, else its text (if any) and a newline. */
export function formatOutput(output: { data: unknown; text: string }, json: boolean): string {
  if (json) return `${JSON.stringify(output.data, null, 2)}\n`;
  if (output.text === '') return '';
  return output.text.endsWith('\n') ? output.text : `${output.text}\n`;
}

/**
 * `verb` with arguments `rest`; `nested` runs another whole command line in this process
 * (`ctx.runCommand`, for `lore demo`).
 */
export async function runCommand(
  io: Io,
  verb: string,
  entry: VerbEntry,
  rest: readonly string[],
  nested: (io: Io) => Promise<number>,
): Promise<number> {
  let json = rest.includes('--json');
  try {
    const { command } = await entry.load();
    markStage('verb module loaded');
    const args = parseCommandArgs(verb, command.spec, rest);
    json = args.values.json === true;
    if (args.values.help === true) {
      io.stdout(renderHelp(verb, entry.summary, command.spec));
      return EXIT.ok;
    }
    const ctx: CommandContext = {
      cwd: io.cwd,
      env: io.env,
      root: typeof args.values.root === 'string' ? args.values.root : undefined,
      json,
      get isTTY() {
        return io.isTTY;
      },
      now: () => Date.now(),
      note: (line) => io.stderr(`${line}\n`),
      readStdin: io.readStdin,
      runCommand: async (argv, cwd, env) => {
        let output = '';
        const append = (text: string): void => {
          output += text;
        };
        const code = await nested({
          argv,
          cwd,
          env,
          stdout: append,
          stderr: append,
          isTTY: false,
          readStdin: async () => '',
        });
        return { output, code };
      },
    };
    const output = await command.run(ctx, args);
    markStage('command ran');
    const printed = formatOutput(output, json);
    if (printed !== '') io.stdout(printed);
    markStage('output written');
    return output.exitCode ?? EXIT.ok;
  } catch (error) {
    if (isLoreError(error)) {
      if (json) {
        io.stdout(
          `${JSON.stringify({ error: { code: error.code, message: error.message, hint: error.hint ?? null, details: error.details ?? null } }, null, 2)}\n`,
        );
      }
      io.stderr(`lore ${verb}: ${error.message}\n`);
      if (error.hint) io.stderr(`${error.hint}\n`);
      return error.code === 'usage' ? EXIT.usage : EXIT.error;
    }
    io.stderr(`lore ${verb}: internal error: ${(error as Error)?.message ?? String(error)}\n`);
    if (io.env.LORE_DEBUG === '1') io.stderr(`${(error as Error)?.stack ?? ''}\n`);
    else io.stderr('this is a bug in lore; run again with LORE_DEBUG=1 for the stack trace and report it\n');
    return EXIT.internal;
  }
}
