import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseHookPayload } from '../../core/inject/parse-hook-input.js';
import { preambleFor, selectLessons } from '../../core/inject/select-lessons.js';
import { formatDecision } from '../../core/inject/format-decision.js';
import { HOOK_EVENTS, SESSION_SOURCES } from '../../core/inject/types.js';
import type { HookEvent, HookEventName } from '../../core/inject/types.js';
import { LoreError } from '../../core/errors.js';
import { choiceOption, listOption, stringOption } from '../command.js';
import type { Command } from '../command.js';
import { truncate } from '../output.js';
import { noteProblems, openCommandWorkspace } from '../open-workspace.js';
import { DISABLED_FILE, repoRelativePaths } from '../../hook/run-hook.js';

export const command: Command = {
  spec: {
    usage:
      'lore explain --tool Bash --command CMD | --tool Edit --path P... | --prompt TEXT | --event SessionStart [--json]',
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
    },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
    examples: [
      'lore explain --tool Bash --command "pytest -v tests/"',
      'lore explain --tool Edit --path src/api/handlers.py --json',
      'lore explain --prompt "why do the tests in tests/unit hang?"',
      'lore explain --event SessionStart',
    ],
  },
  async run(ctx, args) {
    const tool = stringOption(args, 'tool');
    const commandText = stringOption(args, 'command');
    const prompt = stringOption(args, 'prompt');
    const paths = listOption(args, 'path') ?? [];
    const eventName: HookEventName =
      choiceOption(args, 'event', HOOK_EVENTS) ??
      (tool === undefined && prompt !== undefined ? 'UserPromptSubmit' : 'PreToolUse');
    const source = choiceOption(args, 'source', SESSION_SOURCES) ?? 'startup';
    if (eventName === 'PreToolUse' && tool === undefined) {
      throw new LoreError(
        'usage',
        'lore explain needs --tool (with --command or --path), --prompt, or --event',
        {
          hint: 'e.g. lore explain --tool Bash --command "pytest -v"',
        },
      );
    }
    if (eventName === 'UserPromptSubmit' && prompt === undefined) {
      throw new LoreError('usage', '--event UserPromptSubmit needs --prompt TEXT');
    }
    const cwd = resolve(ctx.cwd);
    const toolInput: Record<string, unknown> = {};
    if (commandText !== undefined) toolInput.command = commandText;
    if (paths.length > 0) toolInput.paths = paths;
    if (prompt !== undefined && eventName === 'PreToolUse') toolInput.prompt = prompt;
    const payload: Record<string, unknown> = {
      session_id: 'lore-explain',
      cwd,
      hook_event_name: eventName,
      ...(eventName === 'PreToolUse' ? { tool_name: tool, tool_input: toolInput } : {}),
      ...(eventName === 'UserPromptSubmit' ? { prompt } : {}),
      ...(eventName === 'SessionStart' ? { source } : {}),
    };
    const event: HookEvent | undefined = parseHookPayload(payload);
    if (event === undefined) {
      throw new LoreError(
        'usage',
        `the hook ignores this call (${tool ?? eventName} without anything to match)`,
        {
          hint:
            tool !== undefined && tool.toLowerCase() === 'bash'
              ? 'pass --command CMD'
              : 'pass --path P for file tools, or a tool lore handles (Bash, Read, Edit, Write, NotebookEdit, Glob, Grep, Agent, mcp__*)',
        },
      );
    }

    const ws = await openCommandWorkspace(ctx);
    try {
      const { workspaceManifest } = await import('../../store/manifest-build.js');
      const manifest = await workspaceManifest(ws, ctx.now());
      const root = ws.projectRoot ?? cwd;
      const repoPaths = repoRelativePaths(event.paths ?? [], root);
      const selection = selectLessons({
        event,
        head: manifest.head,
        readBlock: (n) => manifest.blocks[n],
        readTexts: (n) => manifest.texts[n],
        words: manifest.words,
        repoPaths,
        state: { seen: new Set(), shownCount: 0, stateAvailable: true },
        settings: manifest.head.settings,
        exhaustive: true,
      });
      const decision = formatDecision(event.event, selection.decision.plan, preambleFor(event.event));
      const disabled = existsSync(join(ws.cacheDir, DISABLED_FILE));
      const problems = await noteProblems(ctx, ws);
      const plan = decision.plan;
      const summaryOf = new Map(
        selection.matches.map((m) => [m.lesson.id, (m.text?.summary ?? '').replace(/^\[lore \w+\] /, '')]),
      );
      const row = (id: string, label: string, matchedBy: readonly string[]) =>
        `  ${id}  ${label.padEnd(14)}  ${truncate(summaryOf.get(id) ?? '', 70)}${matchedBy.length > 0 ? `  <- ${matchedBy.join(', ')}` : ''}`;
      const lines = [
        `event ${event.event}${event.tool ? `, tool ${event.tool}` : ''}${event.command ? `, command ${JSON.stringify(event.command)}` : ''}${repoPaths.length > 0 ? `, paths ${repoPaths.join(' ')}` : ''}`,
        `stack: ${manifest.head.stack.join(', ') || '(none detected)'}; ${manifest.head.lessonCount} lesson(s) in the manifest, ${selection.candidates} read as candidates, ${selection.matches.length} matched`,
      ];
      if (disabled)
        lines.push(
          'note: lore is disabled in this project (`lore enable` turns it back on): the hook prints {}',
        );
      if (plan.denied.length > 0)
        lines.push('denied by guard:', ...plan.denied.map((d) => row(d.id, 'deny', d.matchedBy)));
      if (plan.included.length > 0)
        lines.push('injected:', ...plan.included.map((i) => row(i.id, i.form, i.matchedBy)));
      if (plan.skipped.length > 0)
        lines.push('dropped:', ...plan.skipped.map((s) => row(s.id, s.reason, s.matchedBy)));
      if (plan.denied.length + plan.included.length + plan.skipped.length === 0)
        lines.push('no lesson matches this call');
      const shown = decision.deny ?? decision.context;
      if (shown !== undefined)
        lines.push(
          '',
          `--- the agent would receive (${decision.deny ? 'permissionDecisionReason' : 'additionalContext'}, ${shown.length} chars) ---`,
          shown,
        );
      return {
        data: {
          event: event.event,
          tool: event.tool ?? null,
          command: event.command ?? null,
          prompt: event.prompt ?? null,
          paths: repoPaths,
          stack: manifest.head.stack,
          disabled,
          lessons: manifest.head.lessonCount,
          candidates: selection.candidates,
          matched: selection.matches.length,
          included: plan.included.map((i) => ({
            id: i.id,
            form: i.form,
            matched_by: i.matchedBy,
            chars: i.text.length,
          })),
          denied: plan.denied.map((d) => ({ id: d.id, matched_by: d.matchedBy })),
          dropped: plan.skipped.map((s) => ({ id: s.id, reason: s.reason, matched_by: s.matchedBy })),
          additionalContext: decision.context ?? null,
          permissionDecisionReason: decision.deny ?? null,
          problems,
        },
        text: lines.join('\n'),
      };
    } finally {
      ws.close();
    }
  },
};
