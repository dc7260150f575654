/**
 * A user's words that no correction pattern reads as one (`isCorrection`), shown to be one by what
 * came around them: the agent's reply owns up to a mistake ("You're right", "My mistake", "Looks
 * like you have SSH keys after all!"), or the user pasted what one of the agent's own commands
 * printed in their terminal (a prompt line running the program of a call the agent just made),
 * which says the agent's result was not how things stand.
 */
import { commandOf } from './call-target.js';
import { isShellTool } from './classify-result.js';
import type { ToolCall } from './events.js';
import { commandKeys } from './shell-command.js';

/**
 * The openings of a reply that owns up to a mistake. Only the opening counts: "you're right" deep
 * in a reply is as often the agent agreeing with a plan as admitting an error.
 */
const OWNS_UP = [
  /^(you'?re|you are) (absolutely |completely |totally |quite )?(right|correct)\b/i,
  /^(my )?apologies\b|^i apologi[sz]e\b|^sorry\b/i,
  /^(good catch|my mistake|my bad|oops)\b/i,
  /^i (was wrong|misread|misunderstood|made a mistake|made an error)\b/i,
];

/** "after all" closing the first sentence: what the agent said before was wrong. */
const AFTER_ALL = /\bafter all\s*[!.]/i;

/** Whether a reply opens by owning up to a mistake the user's words before it pointed out. */
export function ownsUp(reply: string): boolean {
  // Markdown emphasis and quoting around the opening words say nothing.
  const opening = reply
    .trimStart()
    .replace(/^[*_#>\s]+/, '')
    .slice(0, 300);
  const first = opening.split(/(?<=[.!?])\s|\n/)[0] ?? '';
  return OWNS_UP.some((pattern) => pattern.test(opening)) || AFTER_ALL.test(first);
}

/**
 * A shell prompt at the start of a pasted terminal line: `~ `, `$ `, `# `, `> `, `\u276f `,
 * `user@host:~$ `, `PS C:\Users\me> `, and the powerline glyphs themes draw them with (Unicode's
 * private use area: `\ue0b6~ \ue0b0 `). What follows it is the command the user ran.
 */
const PROMPT =
  /^\s*(?:(?:[\ue000-\uf8ff~$#>\u276f\u00bb\u279c]+|[\w.-]+@[\w.-]+(?::[^\s$#]*)?[$#]|PS [A-Za-z]:\\[^>\n]*>) *)+ (\S.*)$/u;

/**
 * The program a user's pasted terminal output ran that one of the agent's own recent shell calls
 * ran too (`ssh-add` of "~  ssh-add -l\n256 SHA256:..." after the agent's `ssh-add -l` failed):
 * the user ran it themselves and shows what it really says. Undefined when the words open with no
 * prompt line, show no output under it, or run no program of the `calls`.
 */
export function rerunByUser<T extends { call: ToolCall }>(text: string, calls: readonly T[]): T | undefined {
  // The first line alone: pasted output can run to many thousand lines.
  const end = text.indexOf('\n');
  const first = end < 0 ? text : text.slice(0, end);
  const ran = end < 0 || first.length > 300 ? undefined : PROMPT.exec(first)?.[1];
  if (ran === undefined || text.slice(end + 1).trim() === '') return undefined;
  const programs = new Set(commandKeys(ran).map((key) => key.split(' ')[0] ?? key));
  if (programs.size === 0) return undefined;
  for (let i = calls.length - 1; i >= 0; i -= 1) {
    const item = calls[i] as T;
    const { call } = item;
    const command = isShellTool(call.tool) ? commandOf(call) : undefined;
    if (command !== undefined && commandKeys(command).some((key) => programs.has(key.split(' ')[0] ?? key)))
      return item;
  }
  return undefined;
}

/** The words of a command line, as a reply or the user would quote them. */
function wordsOf(command: string): string[] {
  return command.split(/[\s'"`|;&()<>]+/).filter((word) => word.length >= 2);
}

/**
 * The agent's recent shell call that the user's words give back run under another program: one
 * line that starts with a program the call did not start with and then runs the call's program
 * with another of its words (`alacritty -e glow -p ~/x.md &` after the agent's
 * `glow -p /home/me/x.md`, whose pager never reached the user's screen; `sudo ...`). That is a
 * correction, however politely worded. The same program given more words (`ssh host whoami` after
 * `ssh host`) is the user's next step, not a correction. Undefined for a question, prose over
 * several lines, words that only quote the call, or a call whose program they do not run.
 */
export function changedByUser<T extends { call: ToolCall }>(
  text: string,
  calls: readonly T[],
): T | undefined {
  if (text.length > 400) return undefined;
  const line = text.trim();
  if (line.includes('\n') || line.length < 5 || line.length > 300 || line.endsWith('?')) return undefined;
  // A command line given back holds a flag or a path; a request in words holds neither.
  if (!/(^|\s)(-\w|~?\/|\.\/)/.test(line)) return undefined;
  const said = new Set(wordsOf(line));
  const first = wordsOf(line)[0];
  for (let i = calls.length - 1; i >= 0; i -= 1) {
    const item = calls[i] as T;
    const { call } = item;
    const command = isShellTool(call.tool) ? commandOf(call) : undefined;
    if (command === undefined || command.includes(line)) continue;
    // Words first: splitting is cheap, parsing the command for its program is not.
    const words = new Set(wordsOf(command));
    const shared = [...said].filter((word) => words.has(word));
    if (shared.length < 2 || shared.length === said.size) continue;
    const program = commandKeys(command)[0]?.split(' ')[0];
    if (program !== undefined && said.has(program) && first !== program) return item;
  }
  return undefined;
}
