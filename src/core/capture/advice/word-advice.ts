/**
 * A heuristic episode worded as advice: the summary says what to do, in the imperative, naming the
 * command, flag or path it concerns ("Add `--no-gpg-sign` to `git commit`: it failed with ..."),
 * the mistake is the failed call and its error gist, the remediation is the fix. An episode whose
 * fix is the failure repeated, or another input with no difference that can be named, is dropped
 * with its reason: a reviewer could only reject it.
 */
import { commandOf, givenFrom, isAbsolutePath, sameInput, targetOf, targetPath } from '../call-target.js';
import type { EpisodeFacts, Wording } from '../draft-candidate.js';
import type { Episode } from '../episode.js';
import type { ToolCall } from '../events.js';
import { TOO_LARGE, onlyMoreOutput, readsOnly, standsInFor } from '../pending-failure.js';
import {
  commandKeys,
  expandedInDoubleQuotes,
  openWords,
  prependedStep,
  stripQuotes,
  tokenize,
} from '../shell-command.js';
import { curlWithoutFail } from '../saved-download.js';
import { nameDifference, sameEffect } from './name-difference.js';
import type { Difference } from './name-difference.js';

/** Why an episode makes no candidate. */
/** Why no candidate is made of an episode: its fix repeats the failure, names no difference, or it has nothing to fire on. */
export type AdviceDrop = 'fix-repeats-failure' | 'unnamed-difference' | 'nothing-to-fire-on';

export type Advice = { wording: Wording; drop: AdviceDrop | undefined };

function flat(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function clip(text: string, max: number): string {
  const one = flat(text);
  return one.length <= max ? one : `${one.slice(0, max - 1)}…`;
}

/** Inline code, on one line, cut with `…` inside the backticks (a reader still sees the start). */
export function code(text: string, max = 60): string {
  return `\`${clip(text.replace(/`/g, "'"), max)}\``;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A path as the lesson shows it: relative to the project when inside it, else as written. */
export function displayPath(path: string, project: string | undefined): string {
  const normal = path.replace(/\\/g, '/');
  const root = project?.replace(/\\/g, '/').replace(/\/+$/, '');
  if (root !== undefined && root !== '' && normal.startsWith(`${root}/`)) {
    return path.slice(root.length + 1);
  }
  return path;
}

/** What the failed call acted on, named: `git commit`, `src/a.ts`, else the tool. */
function failedName(facts: EpisodeFacts, project: string | undefined): string {
  if (facts.shell && facts.key) return code(facts.key, 40);
  if (facts.path !== undefined)
    return `${facts.tool ?? 'the call'} on ${code(displayPath(facts.path, project))}`;
  return facts.tool ?? 'the call';
}

/** The mistake: the failed call and its error gist. */
function mistakeOf(facts: EpisodeFacts, project: string | undefined): string {
  if (facts.failedCommand !== undefined) return `${code(facts.failedCommand, 120)} failed: ${facts.gist}`;
  return `${failedName(facts, project)} failed: ${facts.gist}`;
}

function quoted(gist: string): string {
  return `"${clip(gist, 110)}"`;
}

function isFlag(token: string): boolean {
  return /^(-|[A-Z_][A-Z0-9_]*=)/.test(token);
}

/**
 * The added flags with the value each takes in the fix (`-f deploy/compose.yaml`), when that value
 * is new too: a flag without its value is half the advice.
 */
export function flagsWithValues(added: readonly string[], failed: string, fixed: string): string[] {
  const before = new Set(tokenize(failed).map(stripQuotes));
  const after = tokenize(fixed).map(stripQuotes);
  return added.map((flag) => {
    const next = after[after.indexOf(flag) + 1];
    const takesValue = /^-/.test(flag) && flag !== '--' && next !== undefined && !/^[-;&|<>()]/.test(next);
    return takesValue && !before.has(next) ? `${flag} ${next}` : flag;
  });
}

const CD_PREFIX = /^\s*cd\s+(?:"[^"]*"|'[^']*'|\S+)\s*&&\s*/;

/**
 * Two commands without the `cd DIR && ` both start with: where they ran is no part of the
 * difference, and a summary cut at 60 characters would show nothing but the directory.
 */
export function withoutSharedCd(a: string, b: string): [string, string] {
  const prefix = CD_PREFIX.exec(a)?.[0];
  if (prefix === undefined || !b.startsWith(prefix)) return [a, b];
  const [restA, restB] = [a.slice(prefix.length), b.slice(prefix.length)];
  return restA.trim() === '' || restB.trim() === '' ? [a, b] : withoutSharedCd(restA, restB);
}

/**
 * The program words of two command lines that differ in nothing else (`sc config x` and
 * `sc.exe config x`), or undefined.
 */
export function swappedProgram(failed: string, fixed: string): [string, string] | undefined {
  const [a, b] = [openWords(failed), openWords(fixed)];
  if (a.length !== b.length || a.length === 0) return undefined;
  const differ = a.flatMap((word, i) => (word === b[i] ? [] : [i]));
  const at = a.findIndex((word) => word !== 'sudo' && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
  return differ.length === 1 && differ[0] === at ? [a[at] ?? '', b[at] ?? ''] : undefined;
}

/** The imperative for a changed command line, and the remediation (the fix as written). */
function commandAdvice(
  diff: Extract<Difference, { kind: 'command' }>,
  key: string | undefined,
): { advice: string; remediation: string } {
  const { added, removed } = diff;
  const remediation = `Run ${code(diff.fixed, 160)}`;
  const [failed, fixed] = withoutSharedCd(diff.failed, diff.fixed);
  const flagsOnly = added.length + removed.length > 0 && [...added, ...removed].every(isFlag);
  const where = code(key ?? failed, 40);
  // The same command with `sudo`, or with another program for the same words (`sc` → `sc.exe`).
  if (added.length === 1 && added[0] === 'sudo' && removed.length === 0)
    return { advice: `Run ${where} with \`sudo\``, remediation };
  const expanded = added.length + removed.length === 0 ? expandedInDoubleQuotes(failed, fixed) : undefined;
  if (expanded !== undefined) {
    const names = expanded
      .slice(0, 3)
      .map((name) => code(name))
      .join(', ');
    return {
      advice: `Quote what ${where} is given in single quotes, not double (in double quotes the calling shell expands ${names} first)`,
      remediation,
    };
  }
  const swapped = swappedProgram(failed, fixed);
  if (swapped !== undefined)
    return { advice: `Use ${code(swapped[1], 40)} instead of ${code(swapped[0], 40)}`, remediation };
  // Words other than flags changed too: only the two lines side by side say what changed.
  if (!flagsOnly) return { advice: `Run ${code(fixed, 90)} instead of ${code(failed, 50)}`, remediation };
  const adding = flagsWithValues(added.slice(0, 3), failed, fixed).join(' ');
  if (added.length > 0 && removed.length === 0)
    return { advice: `Add ${code(adding)} to ${where}`, remediation };
  if (removed.length > 0 && added.length === 0)
    return { advice: `Drop ${code(removed.slice(0, 3).join(' '))} from ${where}`, remediation };
  if (added.length > 0)
    return {
      advice: `Use ${code(adding)} instead of ${code(removed.slice(0, 3).join(' '))} with ${where}`,
      remediation,
    };
  return { advice: `Run ${code(fixed, 90)} instead of ${code(failed, 50)}`, remediation };
}

/** The imperative for any nameable difference, and the remediation. */
function differenceAdvice(
  diff: Difference,
  facts: EpisodeFacts,
  project: string | undefined,
): { advice: string; remediation: string } {
  switch (diff.kind) {
    case 'command':
      return commandAdvice(diff, facts.key);
    case 'path': {
      // The same file by its absolute path: the tool wanted an absolute path.
      const tool = facts.tool ?? 'the tool';
      if (!isAbsolutePath(diff.failed) && isAbsolutePath(diff.fixed) && givenFrom(diff.fixed, diff.failed))
        return {
          advice: `Give ${tool} the absolute path (${code(diff.fixed, 70)}), not ${code(diff.failed, 50)}`,
          remediation: `Use ${code(diff.fixed, 70)}`,
        };
      const fixed = code(displayPath(diff.fixed, project), 70);
      return {
        advice: `Use ${fixed} instead of ${code(displayPath(diff.failed, project), 50)} with ${facts.tool ?? 'the tool'}`,
        remediation: `Use ${fixed}`,
      };
    }
    case 'parameters': {
      const parts = [
        ...diff.added.map((name) => `pass ${code(name, 30)}`),
        ...diff.removed.map((name) => `drop ${code(name, 30)}`),
        ...diff.changed.map((setting) => `set ${code(setting, 40)}`),
        ...diff.edited.map(
          ({ key, added, removed }) =>
            `${added.length === 0 ? `drop ${code(removed.join(' '))} from` : removed.length === 0 ? `add ${code(added.join(' '))} to` : `use ${code(added.join(' '))} instead of ${code(removed.join(' '))} in`} \`${key}\``,
        ),
      ].slice(0, 3);
      const what = capitalize(parts.join(', '));
      return { advice: `${what} when calling ${facts.tool ?? 'the tool'}`, remediation: what };
    }
    case 'tool': {
      const how = diff.what !== undefined ? ` (${code(diff.what, 60)})` : '';
      // What the failed call was for: its file, else the command the shell was given.
      const target =
        facts.path !== undefined
          ? ` for ${code(displayPath(facts.path, project))}`
          : facts.failedCommand !== undefined
            ? ` (${code(facts.failedCommand, 50)})`
            : '';
      return {
        advice: `Use ${diff.fixed}${how} instead of ${diff.failed}${target}`,
        remediation: `Use ${diff.fixed}${how}`,
      };
    }
  }
}

/** A step between the failure and the unchanged retry (or another command the fix ran first). */
function enablerAdvice(
  step: ToolCall,
  facts: EpisodeFacts,
  project: string | undefined,
): { advice: string; remediation: string } {
  const command = commandOf(step);
  const path = targetPath(step);
  const before = failedName(facts, project);
  if (command !== undefined)
    return {
      advice: `Run ${code(withoutSharedCd(command, facts.failedCommand ?? '')[0], 70)} before ${before}`,
      remediation: `Run ${code(command, 120)} first, then retry`,
    };
  if (targetOf(step).family === 'read' && path !== undefined && path === facts.path)
    return {
      advice: `Read ${code(displayPath(path, project))} before calling ${facts.tool ?? 'the tool'} on it`,
      remediation: `Read the file first, then retry ${facts.tool ?? 'the call'}`,
    };
  const on = path !== undefined ? ` on ${code(displayPath(path, project))}` : '';
  return {
    advice: `Call ${step.tool}${on} before ${before}`,
    remediation: `Call ${step.tool}${on} first, then retry`,
  };
}

function lastFailedCall(episode: Episode): ToolCall | undefined {
  // one read whole, when there is one: a call from a line cut short shows only some of its input
  const whole = episode.failures.findLast((attempt) => attempt.call.inputCut !== true);
  return (whole ?? episode.failures[episode.failures.length - 1])?.call;
}

/** Whether a call reads the file at `path`: a read tool on it, or a shell lookup that names it. */
function readsFile(call: ToolCall, path: string): boolean {
  if (targetOf(call).family === 'read') return targetPath(call) === path;
  const command = commandOf(call);
  return command !== undefined && readsOnly(call) && command.includes(path);
}

/** A shell fix that shares no command with the failure ran before it could work (an install). */
function isPriorStep(facts: EpisodeFacts): boolean {
  if (!facts.shell || facts.failedCommand === undefined || facts.fixCommand === undefined) return false;
  const failedKeys = commandKeys(facts.failedCommand);
  return !commandKeys(facts.fixCommand).some((key) => failedKeys.includes(key));
}

/** The harness refused to change a file the agent had not read: reading it is the fix, whatever came next. */
const READ_FIRST = /has not been read|read it first|must read/i;

function readFirstAdvice(facts: EpisodeFacts, path: string, project: string | undefined): Advice {
  const tool = facts.tool ?? 'the tool';
  return {
    wording: {
      summary: `Read ${code(displayPath(path, project))} before calling ${tool} on it: it failed with ${quoted(facts.gist)}`,
      mistake: mistakeOf(facts, project),
      remediation: `Read the file first, then retry ${tool}`,
    },
    drop: undefined,
  };
}

/** `curl` without `-f` saves a 404 page as the file: the flag is the lesson, the new URL the fix. */
function curlFailAdvice(facts: EpisodeFacts, fixCommand: string | undefined): Advice | undefined {
  const failed = facts.failedCommand ?? '';
  if (!curlWithoutFail(facts.failedCommand, facts.errorText)) return undefined;
  const then =
    fixCommand !== undefined ? `, then fetch a URL that serves the file (${code(fixCommand, 100)})` : '';
  return {
    wording: {
      summary: `Add \`-f\` to \`curl\` downloads: ${code(failed, 50)} exited 0 and ${facts.gist.replace(/^The download s/, 's')}`,
      mistake: mistakeOf(facts, undefined),
      remediation: `Add \`-f\` so an HTTP error fails the command${then}`,
    },
    drop: undefined,
  };
}

export function wordErrorFix(episode: Episode, facts: EpisodeFacts): Advice {
  const project = episode.project;
  const curl = curlFailAdvice(facts, episode.fix !== undefined ? commandOf(episode.fix) : undefined);
  if (curl !== undefined) return curl;
  if (facts.path !== undefined && TOO_LARGE.test(facts.errorText.slice(0, 400)))
    return {
      wording: {
        summary: `Read ${code(displayPath(facts.path, project))} in parts (\`offset\`/\`limit\`) or search it: it failed with ${quoted(facts.gist)}`,
        mistake: mistakeOf(facts, project),
        remediation:
          episode.fix !== undefined && commandOf(episode.fix) !== undefined
            ? `Read it in parts, or search it as the fix did: ${code(commandOf(episode.fix) ?? '', 120)}`
            : 'Read it in parts with `offset` and `limit`, or search it',
      },
      drop: undefined,
    };
  if (facts.harness && facts.path !== undefined && READ_FIRST.test(facts.gist))
    return readFirstAdvice(facts, facts.path, project);
  // An edit that failed and was settled by reading the same file (a read tool, or a shell command
  // that only shows it: `cat`, `sed -n 1,80p`): reading first is the advice.
  const settled = episode.fix;
  if (
    settled !== undefined &&
    facts.path !== undefined &&
    facts.call !== undefined &&
    targetOf(facts.call).family === 'edit' &&
    readsFile(settled, facts.path)
  )
    return readFirstAdvice(facts, facts.path, project);
  const mistake = mistakeOf(facts, project);
  const failed = lastFailedCall(episode);
  const fix = episode.fix;
  const because = `it failed with ${quoted(facts.gist)}`;
  const fixCommand = fix !== undefined ? commandOf(fix) : undefined;
  if (facts.refusedDirectory && facts.call !== undefined) {
    const param = 'dir_path' in facts.call.input ? 'dir_path' : 'directory';
    const folder = facts.call.input[param];
    const named = typeof folder === 'string' ? ` ${code(folder, 80)}` : '';
    return {
      wording: {
        summary: `Don't pass \`${param}\`${named} to ${facts.call.tool}, it is outside the workspace: ${because}`,
        mistake,
        remediation:
          fixCommand === undefined
            ? 'Run the command from the workspace, with absolute paths in it'
            : `Run it from the workspace, with absolute paths in the command: ${code(fixCommand, 160)}`,
      },
      drop: undefined,
    };
  }
  if (facts.cdAlone !== undefined) {
    const folder = facts.cdAlone;
    return {
      wording: {
        summary: `Don't run ${code(`cd ${folder}`, 60)} on its own: each ${facts.tool ?? 'shell'} call starts in a new shell in the workspace folder, so give the path (${code(`${folder}/…`, 60)}) or chain ${code(`cd ${folder} && …`, 60)}`,
        mistake: `${code(`cd ${folder}`, 60)} on its own changed nothing for the calls after it`,
        remediation:
          fixCommand !== undefined
            ? `Reach the folder in the call itself, as the fix did: ${code(fixCommand, 120)}`
            : `Reach the folder in the call itself, as the fix did (${fix?.tool ?? 'the next call'} on ${code(`${folder}`, 60)})`,
      },
      drop: undefined,
    };
  }
  if (facts.remoteMissing !== undefined && fixCommand !== undefined) {
    const { program, host } = facts.remoteMissing;
    return {
      wording: {
        summary: `Don't run ${code(program, 40)} on ${code(host, 60)} over ssh, it has no such program: ${because}`,
        mistake,
        remediation: `Do without it there, as the fix did: ${code(fixCommand, 160)}`,
      },
      drop: undefined,
    };
  }
  const moved = facts.moved;
  if (moved !== undefined)
    return {
      wording: {
        summary: `Look for ${code(moved.path, 60)} under ${code(moved.folder, 60)}, not in the working folder: ${because}`,
        mistake,
        remediation: `Give the path from the working folder: ${code(`${moved.folder}${moved.path}`, 120)}`,
      },
      drop: undefined,
    };
  if (episode.replacement !== undefined && facts.key !== undefined && fixCommand !== undefined)
    return {
      wording: {
        summary: `Use ${code(episode.replacement, 40)} instead of ${code(replacedKey(episode.replacement, facts), 40)} here: ${because}`,
        mistake,
        remediation: `Run ${code(fixCommand, 160)}`,
      },
      drop: undefined,
    };
  // The fix ran a command first, then the failed one as it was (`git pull --rebase && git push`).
  const prepended =
    fix !== undefined && failed !== undefined && fixCommand !== undefined && facts.failedCommand !== undefined
      ? prependedStep(
          commandOf(failed) ?? facts.failedCommand,
          fixCommand,
          failed.inputCut === true || fix.inputCut === true,
        )
      : undefined;
  const step =
    episode.enabler !== undefined &&
    fix !== undefined &&
    failed !== undefined &&
    (sameInput(fix, failed) || onlyMoreOutput(failed, fix))
      ? episode.enabler
      : fix !== undefined && prepended !== undefined
        ? { ...fix, input: { ...fix.input, command: prepended } }
        : fix !== undefined && isPriorStep(facts)
          ? fix
          : undefined;
  if (step !== undefined) {
    const { advice, remediation } = enablerAdvice(step, facts, project);
    return {
      wording: { summary: `${advice}: without it, ${because}`, mistake, remediation },
      drop: undefined,
    };
  }
  const diff = fix !== undefined && failed !== undefined ? nameDifference(failed, fix) : undefined;
  if (diff === undefined) {
    const repeated = fix === undefined || failed === undefined || sameEffect(fix, failed);
    return {
      wording: {
        summary: `${failedName(facts, project)} failed: ${facts.gist}`,
        mistake,
        remediation: undefined,
      },
      drop: repeated ? 'fix-repeats-failure' : 'unnamed-difference',
    };
  }
  const { advice, remediation } = differenceAdvice(diff, facts, project);
  return { wording: { summary: `${advice}: ${because}`, mistake, remediation }, drop: undefined };
}

export function wordRetryLoop(episode: Episode, facts: EpisodeFacts): Advice {
  const name = failedName(facts, episode.project);
  const times = episode.failures.length;
  const mistake = `${name} failed ${times} times in a row: ${facts.gist}`;
  if (episode.diagnosis !== undefined)
    return {
      wording: {
        summary: `When ${name} fails with ${quoted(facts.gist)}: ${episode.diagnosis}`,
        mistake,
        remediation: episode.diagnosis,
      },
      drop: undefined,
    };
  return {
    wording: {
      summary: `Do not retry ${name} as it is: it failed ${times} times in a row with ${quoted(facts.gist)}`,
      mistake,
      remediation: 'Read the error and change the call (or ask) instead of repeating it',
    },
    drop: undefined,
  };
}

export function wordTimeout(episode: Episode, facts: EpisodeFacts): Advice {
  const project = episode.project;
  const stalled = facts.first?.result.failure === 'interactive-prompt';
  const how = stalled ? 'it stalled on an interactive prompt' : 'it hung until it timed out';
  const mistake = `${failedName(facts, project)} ${stalled ? 'stalls on an interactive prompt' : 'hangs until it times out'}: ${facts.gist}`;
  const failed = lastFailedCall(episode);
  const diff =
    episode.fix !== undefined && failed !== undefined ? nameDifference(failed, episode.fix) : undefined;
  if (diff !== undefined) {
    const { advice, remediation } = differenceAdvice(diff, facts, project);
    return {
      wording: { summary: `${advice}: ${how} (${quoted(facts.gist)})`, mistake, remediation },
      drop: undefined,
    };
  }
  const what = facts.failedCommand !== undefined ? code(facts.failedCommand, 70) : failedName(facts, project);
  const remediation = stalled
    ? 'Run it non-interactively: pass every option, --yes, CI=1'
    : 'Run it with a timeout or in the background';
  return {
    wording: {
      summary: stalled
        ? `Run ${what} non-interactively (pass every option, --yes, CI=1): ${how} (${quoted(facts.gist)})`
        : `Run ${what} with a timeout or in the background: ${how} (${quoted(facts.gist)})`,
      mistake,
      remediation,
    },
    drop: undefined,
  };
}

export function wordDiagnosis(episode: Episode, facts: EpisodeFacts): Advice {
  const name = failedName(facts, episode.project);
  return {
    wording: {
      summary: `When ${name} fails with ${quoted(facts.gist)}: ${episode.diagnosis ?? ''}`,
      mistake: `${name} failed: ${facts.gist}`,
      remediation: episode.diagnosis,
    },
    drop: undefined,
  };
}

export function wordCorrection(episode: Episode, facts: EpisodeFacts): Advice {
  const said = `"${clip(episode.userText ?? '', 180)}"`;
  const { call, tool, failedCommand } = facts;
  const doing =
    call === undefined
      ? undefined
      : failedCommand !== undefined
        ? `When you run ${facts.key ? code(facts.key, 40) : code(failedCommand, 60)}`
        : `When you use ${failedName(facts, episode.project)}`;
  return {
    wording: {
      summary:
        doing === undefined
          ? `Heed the user's correction: ${said}`
          : `${doing}, heed the user's correction: ${said}`,
      mistake: `the user corrected ${call ? `${tool}${failedCommand ? ` ${code(failedCommand, 120)}` : ''}` : 'the agent'}`,
      remediation: `the user said: "${clip(episode.userText ?? '', 160)}"`,
    },
    drop: undefined,
  };
}

/**
 * What a replacement stands in for: the failed command's program it names another way (`python` of
 * `refreshenv; python --version`, for `C:\\Python314\\python.exe` or `python3`; `docker-compose`,
 * for `docker compose`), else the failed command's key.
 */
function replacedKey(replacement: string, facts: EpisodeFacts): string {
  const ran = commandKeys(facts.failedCommand ?? '').map((key) => key.split(' ')[0] ?? key);
  return standsInFor(replacement, ran) ?? facts.key ?? '';
}
