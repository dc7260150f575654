/**
 * The user's own agent CLI in print mode (`claude -p`, `codex exec -`): the prompt on stdin, the
 * answer on stdout. No API key passes through lore: the program uses its own login. The program
 * runs without a shell (the config gives argv), in the working directory, and is killed at the
 * timeout.
 */
import { spawn } from 'node:child_process';
import { estimateTokens } from '../../core/distill/distill-budget.js';
import type { Completion, CompletionRequest, DistillProvider } from './distill-provider.js';

/** More output than any lesson needs: a program that prints this much is not answering. */
const OUTPUT_MAX = 1 << 20;

export type CommandSettings = { argv: readonly string[]; cwd: string; env: NodeJS.ProcessEnv };

function clip(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `…${flat.slice(flat.length - max + 1)}`;
}

export function createCommandProvider(settings: CommandSettings): DistillProvider {
  const [program, ...args] = settings.argv;
  return {
    name: 'command',
    model: undefined,
    endpoint: settings.argv.join(' '),
    complete(request: CompletionRequest): Promise<Completion> {
      const prompt = `${request.system}\n\n${request.user}\n`;
      return new Promise((resolve) => {
        let stdout = '';
        let stderr = '';
        let settled = false;
        const child = spawn(program ?? '', args, {
          cwd: settings.cwd,
          env: settings.env,
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        // Called only from the child's events and the timer, all after `timer` exists.
        const finish = (completion: Completion) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(completion);
        };
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          finish({
            ok: false,
            kind: 'timeout',
            message: `\`${settings.argv.join(' ')}\` gave no answer within ${Math.round(request.timeoutMs / 1000)} s`,
          });
        }, request.timeoutMs);
        child.on('error', (error) =>
          finish({
            ok: false,
            kind: 'unreachable',
            message: `could not start \`${program}\`: ${error.message}`,
          }),
        );
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk;
          if (stdout.length > OUTPUT_MAX) child.kill('SIGKILL');
        });
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
          stderr = (stderr + chunk).slice(-4096);
        });
        child.on('close', (code, signal) => {
          if (code !== 0) {
            finish({
              ok: false,
              kind: 'error',
              message: `\`${settings.argv.join(' ')}\` exited with ${code ?? signal}${stderr.trim() ? `: ${clip(stderr)}` : ''}`,
            });
            return;
          }
          finish({
            ok: true,
            text: stdout,
            usage: {
              inputTokens: estimateTokens(prompt),
              outputTokens: estimateTokens(stdout),
              estimated: true,
            },
          });
        });
        // A program that exits without reading its stdin closes the pipe: that is its answer, not ours.
        child.stdin.on('error', () => undefined);
        child.stdin.end(prompt);
      });
    },
  };
}
