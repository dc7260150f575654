import { LoreError } from '../../core/errors.js';
import { HOOK_EVENTS, HOSTS, SESSION_SOURCES } from '../../core/inject/types.js';
import type { Host } from '../../core/inject/types.js';
import { explainCall, explainEvent } from '../../store/inject/explain-call.js';
import type { ExplainRequest, Explanation } from '../../store/inject/explain-call.js';
import { HOST_ADAPTERS, hostEventName, hostHandles, hostOutput, hostPhases } from '../explain-host.js';
import { choiceOption, listOption, stringOption } from '../command.js';
import type { Command } from '../command.js';
import { truncate } from '../output.js';
import { noteProblems, openCommandWorkspace } from '../open-workspace.js';

export const command: Command = {
  spec: {
    usage:
      'lore explain --tool Bash --command CMD | --tool Edit --path P... [--content TEXT] [--output TEXT] | --prompt TEXT | --event SessionStart [--host H] [--json]',
    description:
      'Runs the hook pipeline (load, match, rank, plan, format) for one made-up call, as a dry run: no session\n' +
      'state is read or written, nothing is logged. Shows which lessons would be injected or would deny the\n' +
      'call, what matched them (matched_by), why every other matching lesson was dropped, and the exact text\n' +
      'the agent would receive. Paths are relative to the working directory, or repo-relative.',
    options: {
      tool: {
        type: 'string',
        value: 'T',
        description: 'the tool called: Bash, Edit, Write, Read, Glob, Grep, mcp__...',
      },
      command: { type: 'string', value: 'CMD', description: 'the Bash command' },
      path: {
        type: 'string',
        multiple: true,
        value: 'P',
        description: 'a path the tool touches; repeatable',
      },
      content: {
        type: 'string',
        value: 'TEXT',
        description: 'Edit/Write: the text the call would write (for lessons with content patterns)',
      },
      output: {
        type: 'string',
        value: 'TEXT',
        description:
          "the call's error or output: adds the half after it ran, where lessons with `errors` speak (Claude Code's PostToolUseFailure unless --host)",
      },
      prompt: { type: 'string', value: 'TEXT', description: 'a user prompt (UserPromptSubmit)' },
      event: {
        type: 'string',
        value: 'E',
        description: `${HOOK_EVENTS.join(' | ')} (default from the other flags)`,
      },
      source: {
        type: 'string',
        value: 'S',
        description: `SessionStart source: ${SESSION_SOURCES.join(' | ')}`,
      },
      host: {
        type: 'string',
        value: 'H',
        description: `${HOSTS.join(' | ')}: the answer as that agent gets it (its event names, JSON and cap; Gemini CLI and Cursor split a tool call into a guard half before it and an advice half after it)`,
      },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
    examples: [
      'lore explain --tool Bash --command "pytest -v tests/"',
      'lore explain --tool Edit --path src/api/handlers.py --json',
      `lore explain --tool Write --path src/app.py --content 'print("debug")'`,
      'lore explain --prompt "why do the tests in tests/unit hang?"',
      'lore explain --event SessionStart',
      'lore explain --host gemini --tool Bash --command "rm -rf build"',
      `lore explain --tool Bash --command 'ls build' --output "ls: cannot access 'build': No such file or directory"`,
    ],
  },
  async run(ctx, args) {
    const tool = stringOption(args, 'tool');
    const prompt = stringOption(args, 'prompt');
    const request: ExplainRequest = {
      cwd: ctx.cwd,
      paths: listOption(args, 'path') ?? [],
      source: choiceOption(args, 'source', SESSION_SOURCES) ?? 'startup',
    };
    const event = choiceOption(args, 'event', HOOK_EVENTS);
    const commandText = stringOption(args, 'command');
    const content = stringOption(args, 'content');
    if (content !== undefined) request.content = content;
    const output = stringOption(args, 'output');
    if (output !== undefined) request.output = output;
    if (event !== undefined) request.event = event;
    if (tool !== undefined) request.tool = tool;
    if (commandText !== undefined) request.command = commandText;
    if (prompt !== undefined) request.prompt = prompt;
    explainEvent(request);

    const host = choiceOption(args, 'host', HOSTS);
    const ws = await openCommandWorkspace(ctx);
    try {
      // a call's result is explained in the halves after the call ran: Claude Code's unless a host is named
      const shownHost = host ?? (output !== undefined ? 'claude-code' : undefined);
      if (shownHost !== undefined) {
        const explained = await explainForHost(ws, request, ctx.now(), shownHost);
        return { data: { ...explained.data, problems: await noteProblems(ctx, ws) }, text: explained.text };
      }
      const { summaries, ...explained } = await explainCall(ws, request, ctx.now());
      const problems = await noteProblems(ctx, ws);
      return { data: { ...explained, problems }, text: renderExplanation(explained, summaries).join('\n') };
    } finally {
      ws.close();
    }
  },
};

/** The explanation as text: what matched, what goes out, what was dropped and why. */
function renderExplanation(
  explained: Omit<Explanation, 'summaries'>,
  summaries: Record<string, string>,
): string[] {
  const row = (id: string, label: string, matchedBy: readonly string[]) =>
    `  ${id}  ${label.padEnd(14)}  ${truncate(summaries[id] ?? '', 70)}${matchedBy.length > 0 ? `  <- ${matchedBy.join(', ')}` : ''}`;
  const lines = [
    `event ${explained.event}${explained.tool ? `, tool ${explained.tool}` : ''}${explained.command ? `, command ${JSON.stringify(explained.command)}` : ''}${explained.paths.length > 0 ? `, paths ${explained.paths.join(' ')}` : ''}${explained.content !== null ? `, content ${JSON.stringify(truncate(explained.content, 60))}` : ''}`,
    `stack: ${explained.stack.join(', ') || '(none detected)'}; ${explained.lessons} lesson(s) in the manifest, ${explained.candidates} read as candidates, ${explained.matched} matched`,
  ];
  if (explained.disabled)
    lines.push('note: lore is disabled in this project (`lore enable` turns it back on): the hook prints {}');
  const guards = explained.denied.filter((d) => d.kind !== 'checkpoint');
  const checkpoints = explained.denied.filter((d) => d.kind === 'checkpoint');
  if (guards.length > 0)
    lines.push('denied by guard:', ...guards.map((d) => row(d.id, 'deny', d.matched_by)));
  if (checkpoints.length > 0)
    lines.push(
      'denied by checkpoint (first call of a session only; the same call again runs):',
      ...checkpoints.map((d) => row(d.id, 'deny once', d.matched_by)),
    );
  if (explained.included.length > 0)
    lines.push(
      'injected:',
      ...explained.included.flatMap((i) => [
        row(i.id, i.skill === undefined ? i.form : `skill (${i.form})`, i.matched_by),
        ...(i.skill === undefined
          ? []
          : [
              `    a pointer to the aggregated skill ${i.skill.path} stands in for ${i.skill.lessons.join(', ')}: the hook prefers a tool's skill over its lessons`,
            ]),
      ]),
    );
  if (explained.dropped.length > 0)
    lines.push(
      'dropped:',
      ...explained.dropped.map((s) =>
        row(s.id, s.skill === undefined ? s.reason : `${s.reason} ${s.skill}`, s.matched_by),
      ),
    );
  if (explained.dropped.some((s) => s.reason === 'in-skill'))
    lines.push(
      'in-skill: the lesson is in an aggregated tool skill (`lore aggregate`); the hook points at the skill once per session instead',
    );
  if (explained.denied.length + explained.included.length + explained.dropped.length === 0)
    lines.push('no lesson matches this call');
  const denied = explained.permissionDecisionReason;
  const shown = denied ?? explained.additionalContext;
  if (shown !== null)
    lines.push(
      '',
      `--- the agent would receive (${denied !== null ? 'permissionDecisionReason' : 'additionalContext'}, ${shown.length} chars) ---`,
      shown,
    );
  return lines;
}

/** `--host H`: each half of the call the host runs, under its event name, with the JSON the hook prints. */
async function explainForHost(
  ws: Awaited<ReturnType<typeof openCommandWorkspace>>,
  request: ExplainRequest,
  nowMs: number,
  host: Host,
): Promise<{ data: Record<string, unknown>; text: string }> {
  const event = explainEvent(request).event;
  if (!hostHandles(host, event)) {
    throw new LoreError('usage', `${host} has no hook through which lore can answer ${event}`, {
      hint: `lore answers ${host} on ${HOST_ADAPTERS[host].events.join(', ')}`,
    });
  }
  const halves = [];
  const lines: string[] = [];
  for (const phase of hostPhases(host, event, request.output !== undefined)) {
    const { summaries, ...explained } = await explainCall(
      ws,
      { ...request, ...(phase === undefined ? {} : { phase }), maxChars: HOST_ADAPTERS[host].maxChars, host },
      nowMs,
    );
    const hostEvent = hostEventName(host, event, phase);
    const output = hostOutput(host, { ...explained, summaries }, phase);
    halves.push({ ...explained, host, hostEvent, phase: phase ?? null, output });
    if (phase !== undefined)
      lines.push(
        `=== ${host} ${hostEvent}: ${phase === 'before' ? 'before the call (guards and checkpoints only: no context enters here)' : phase === 'outcome' ? 'after the call ran, with its result (only lessons that wait for an error)' : 'after the call (beside its result)'} ===`,
      );
    lines.push(
      ...renderExplanation(explained, summaries),
      '',
      `--- the hook prints (${host}) ---`,
      JSON.stringify(output),
      '',
    );
  }
  const data = halves.length === 1 ? { ...halves[0] } : { host, event, halves };
  return { data, text: lines.join('\n').trimEnd() };
}
