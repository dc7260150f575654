import { DOC_TYPES, NO_FRONTMATTER } from '../../core/docs/doc-record.js';
import { LoreError, formatProblem } from '../../core/errors.js';
import type { Problem } from '../../core/errors.js';
import { docsScope, indexDocs, listDocs, showDoc } from '../../store/docs/docs-actions.js';
import type { ListedDoc } from '../../store/docs/docs-actions.js';
import { openWorkspace } from '../../store/workspace/workspace.js';
import type { Workspace } from '../../store/workspace/workspace.js';
import { choiceOption, flagOption, listOption } from '../command.js';
import type { Command, CommandContext, ParsedArgs } from '../command.js';
import { afterWrite } from '../../store/workspace/after-write.js';

const ACTIONS = ['list', 'show', 'add', 'index', 'migrate'] as const;
type Action = (typeof ACTIONS)[number];

/** Which options each action takes. */
const ACTION_OPTIONS: Record<Action, readonly string[]> = {
  list: ['type', 'tag'],
  show: [],
  add: [],
  index: ['force'],
  migrate: ['dry-run'],
};

export const command: Command = {
  spec: {
    usage:
      'lore docs list [--type T] [--tag T]... [--json] | show PATH [--json] | add DIR | index [--force] | migrate [--dry-run]',
    description:
      'Project Markdown docs (designs, patterns, context, glossaries, runbooks) under the docs roots\n' +
      '(config docs.roots, default docs/). Each doc has a frontmatter: type, summary, tags, paths,\n' +
      'related_features, related_artifacts; a doc without one is listed with metadata inferred from its\n' +
      'directory (docs/design/<feature>/ is a design doc of <feature>) and its first line.\n' +
      '  list      the docs, in path order; --type and --tag filter (ANDed)\n' +
      '  show      one doc: its metadata and text (only under the roots, never .lore/)\n' +
      '  add       register a directory as a docs root in .lore/config.yaml (idempotent)\n' +
      '  index     build the body index `lore search --kind doc --hybrid` uses (unchanged files skipped)\n' +
      '  migrate   write the inferred frontmatter into docs missing it; --dry-run prints the diff',
    options: {
      type: {
        type: 'string',
        value: 'T',
        description: `list: only docs of this type (${DOC_TYPES.join(' | ')})`,
      },
      tag: {
        type: 'string',
        multiple: true,
        value: 'T',
        description: 'list: only docs with this tag; repeatable',
      },
      force: { type: 'boolean', description: 'index: re-read every doc, not only changed ones' },
      'dry-run': { type: 'boolean', description: 'migrate: print the unified diff, write nothing' },
    },
    positionals: { min: 1, max: 2, names: 'list | show PATH | add DIR | index | migrate' },
    json: true,
    examples: [
      'lore docs list',
      'lore docs list --type design --tag auth --json',
      'lore docs show docs/design/auth/login.md',
      'lore docs add handbook',
      'lore docs index',
      'lore docs migrate --dry-run',
    ],
  },
  async run(ctx, args) {
    const [rawAction, target] = args.positionals;
    const action = parseAction(rawAction, target, args);
    const ws = await openWorkspace({ cwd: ctx.cwd, root: ctx.root, env: ctx.env });
    try {
      for (const problem of ws.configProblems) ctx.note(`lore: ${formatProblem(problem)}`);
      const scope = docsScope(ws);
      if (action === 'list') return runList(ctx, args, ws);
      if (action === 'show') {
        const view = await showDoc(scope, target ?? '', ctx.cwd);
        noteDocProblems(ctx, view.doc.problems);
        return { data: { doc: view.doc, body: view.body }, text: formatDocDetail(view.doc, view.body) };
      }
      if (action === 'add') {
        const { addDocsRoot } = await import('../../store/docs/docs-writes.js');
        const result = addDocsRoot(scope, target ?? '', ctx.cwd);
        if (result.added) await afterWrite(ws, 'project');
        return {
          data: result,
          text: result.added
            ? `added docs root ${result.root} (${result.configFile}); docs roots: ${result.roots.join(', ')}`
            : `${result.root} is already a docs root; docs roots: ${result.roots.join(', ')}`,
        };
      }
      if (action === 'index') {
        const result = await indexDocs(scope, flagOption(args, 'force'));
        if (ws.project !== undefined) await afterWrite(ws, 'project');
        const missing = result.roots.filter((root) => root.skipped !== undefined);
        for (const root of missing) ctx.note(`lore: docs root "${root.pattern}": ${root.skipped}`);
        return {
          data: result,
          text: `body index: ${result.indexed} doc(s) indexed, ${result.unchanged} unchanged, ${result.removed} removed (${result.total} in all)`,
        };
      }
      const dryRun = flagOption(args, 'dry-run');
      const { migrateDocs } = await import('../../store/docs/docs-writes.js');
      const result = migrateDocs(scope, dryRun);
      if (!dryRun && result.changed.length > 0 && ws.project !== undefined) await afterWrite(ws, 'project');
      noteDocProblems(ctx, result.problems);
      // docs migrate left alone (not UTF-8, changed while migrating): each named, not only in --json
      for (const problem of result.problems.filter((each) => each.severity === 'warning')) {
        ctx.note(`lore: ${formatProblem(problem)}`);
      }
      const left = result.notUtf8.length === 0 ? '' : `; ${result.notUtf8.length} left alone (not UTF-8)`;
      const lines = dryRun
        ? [
            ...result.changed.map((doc) => doc.diff.trimEnd()),
            result.changed.length === 0
              ? `every doc has a frontmatter (${result.unchanged} checked${left}); nothing to migrate`
              : `${result.changed.length} doc(s) would change${left}; run \`lore docs migrate\` to write them`,
          ]
        : result.changed.length === 0
          ? [`every doc has a frontmatter (${result.unchanged} checked${left}); nothing to migrate`]
          : [
              ...result.changed.map((doc) => `migrated ${doc.path} (+${doc.added.join(', +')})`),
              `${result.changed.length} doc(s) migrated, ${result.unchanged} already had a frontmatter${left}`,
            ];
      return { data: result, text: lines.join('\n') };
    } finally {
      ws.close();
    }
  },
};

function parseAction(raw: string | undefined, target: string | undefined, args: ParsedArgs): Action {
  if (!(ACTIONS as readonly string[]).includes(raw ?? '')) {
    throw new LoreError('usage', `unknown action "${raw}"; use ${ACTIONS.join(', ')}`, {
      hint: 'usage: lore docs list | show PATH | add DIR | index | migrate',
    });
  }
  const action = raw as Action;
  const needsTarget = action === 'show' || action === 'add';
  if (needsTarget && target === undefined) {
    throw new LoreError('usage', `lore docs ${action} needs a ${action === 'show' ? 'PATH' : 'DIR'}`);
  }
  if (!needsTarget && target !== undefined) {
    throw new LoreError('usage', `lore docs ${action} takes no argument; got "${target}"`);
  }
  for (const name of ['type', 'tag', 'force', 'dry-run']) {
    if (args.values[name] !== undefined && !ACTION_OPTIONS[action].includes(name)) {
      throw new LoreError('usage', `--${name} does not go with lore docs ${action}`, {
        hint: 'run `lore docs --help` for which options go with which action',
      });
    }
  }
  return action;
}

async function runList(ctx: CommandContext, args: ParsedArgs, ws: Workspace) {
  const type = choiceOption(args, 'type', DOC_TYPES);
  const result = await listDocs(docsScope(ws), { type, tags: listOption(args, 'tag') });
  noteDocProblems(ctx, result.problems);
  // with no docs at all the text says so; with some, a root that gave nothing is worth a note
  if (result.docs.length > 0) {
    for (const root of result.roots.filter((r) => r.skipped !== undefined)) {
      ctx.note(`lore: docs root "${root.pattern}": ${root.skipped}`);
    }
  }
  const filtered = type !== undefined || listOption(args, 'tag') !== undefined;
  const text =
    result.docs.length === 0
      ? filtered
        ? 'no docs match'
        : `no docs under the docs roots (${result.roots.map((root) => root.pattern).join(', ')}); add Markdown files there, or register another directory with \`lore docs add DIR\``
      : result.docs.map(formatDocRow).join('\n');
  return { data: { docs: result.docs, roots: result.roots }, text };
}

export function formatDocRow(doc: ListedDoc): string {
  const source = doc.source === 'frontmatter' ? '' : `  (${doc.source})`;
  const tags = doc.tags.length > 0 ? `  [${doc.tags.join(', ')}]` : '';
  return `${doc.type.padEnd(8)} ${doc.path}  ${doc.summary}${tags}${source}`;
}

function formatDocDetail(doc: ListedDoc, body: string): string {
  const lines = [
    `${doc.path}`,
    `type:     ${doc.type}${doc.source === 'frontmatter' ? '' : ` (metadata ${doc.source})`}`,
    `summary:  ${doc.summary}`,
  ];
  if (doc.tags.length > 0) lines.push(`tags:     ${doc.tags.join(', ')}`);
  if (doc.paths.length > 0) lines.push(`paths:    ${doc.paths.join(', ')}`);
  if (doc.relatedFeatures.length > 0) lines.push(`features: ${doc.relatedFeatures.join(', ')}`);
  if (doc.relatedArtifacts.length > 0) lines.push(`related:  ${doc.relatedArtifacts.join(', ')}`);
  return `${lines.join('\n')}\n\n${body.replace(/^\n+/, '')}`;
}

export function noteDocProblems(ctx: CommandContext, problems: readonly Problem[]): void {
  const bare = problems.filter((problem) => problem.message === NO_FRONTMATTER).length;
  if (bare > 0) {
    ctx.note(`lore: ${bare} doc(s) have no frontmatter (metadata inferred); \`lore docs migrate\` writes it`);
  }
  const errors = problems.filter(
    (problem) => problem.severity === 'error' && problem.message !== NO_FRONTMATTER,
  );
  if (errors.length === 0) return;
  const files = [...new Set(errors.map((problem) => problem.file))];
  ctx.note(
    `lore: ${files.length} doc(s) have frontmatter problems (their metadata is inferred where needed):`,
  );
  for (const problem of errors.slice(0, 3)) ctx.note(`  ${formatProblem(problem)}`);
  if (errors.length > 3)
    ctx.note(`  ... and ${errors.length - 3} more (lore docs list --json shows each doc's problems)`);
  ctx.note('`lore docs migrate` backfills missing fields; other problems need a hand edit');
}
