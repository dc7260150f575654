import { readFileSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { LoreError } from '../../core/errors.js';
import { formatProblem } from '../../core/errors.js';
import { detectInteropFormat } from '../../core/interop/interop-formats.js';
import { INTEROP_FORMATS } from '../../core/interop/interop-format.js';
import type { InteropFormatName } from '../../core/interop/interop-format.js';
import { ID_PATTERN, TIERS } from '../../core/lesson/constants.js';
import { choiceOption, flagOption } from '../command.js';
import type { Command, CommandContext } from '../command.js';
import { openCommandWorkspace, settleIndex } from '../open-workspace.js';
import { importLessons } from '../../store/lessons/lore-json.js';
import { importInterop } from '../../store/interop/import-interop.js';
import { firstNonUtf8Line, withoutByteOrderMark } from '../../store/interop/read-sources.js';
import { utf16Text } from '../../store/fs/read-utf8.js';
import type { InteropImportReport } from '../../store/interop/import-interop.js';
import type { BroadImport } from '../../store/breadth/check-draft.js';

const FROM = ['lore', ...INTEROP_FORMATS] as const;

export const command: Command = {
  spec: {
    usage:
      'lore import PATH [--from FORMAT] [--tier T] [--replace] [--rewrite-source] [--dry-run] [--force] [--json]',
    description:
      "Adds lessons from PATH (a file, a folder such as .orbit/, .add/ or .cursor/rules/, or - for lore's JSON\n" +
      "on stdin). The format is detected by name and shape unless --from names it: lore (lore's own export,\n" +
      'keeping ids and votes), orbit, lessons-learned, add (learnings.json / library.json), add-md (ADD\n' +
      "learnings.md; with --rewrite-source, backed up as .bak and replaced by ADD's generated view once every\n" +
      'entry was imported and the view reads back the same; never without it),\n' +
      'coia (JSON export or SQLite database), cursor (.mdc rules). Imported lessons get lore ids and keep their\n' +
      'own as aliases (`lore show L-001`). Importing the same source again adds nothing; a lesson changed since\n' +
      'is reported as a conflict (--replace overwrites it). Entries lore cannot read are reported with file,\n' +
      'entry and reason, and skipped whole; exit status 1 if there were any. The breadth check of `lore add`\n' +
      'runs on every imported lesson: too-broad ones are listed with their figures and marked needsReview\n' +
      '(held from injection until `lore review` or the dashboard keeps them) unless --force.',
    options: {
      from: {
        type: 'string',
        value: 'FORMAT',
        description: `the format of PATH (${FROM.join(' | ')}; default: detected)`,
      },
      tier: {
        type: 'string',
        value: 'T',
        description: `put every lesson in this tier (${TIERS.join(' | ')}; default: each lesson's own)`,
      },
      replace: { type: 'boolean', description: 'overwrite lessons whose id exists with different content' },
      'dry-run': { type: 'boolean', description: 'report what would change, write nothing' },
      force: {
        type: 'boolean',
        description: 'import lessons the breadth check finds too broad without marking them needsReview',
      },
      'rewrite-source': {
        type: 'boolean',
        description: "ADD learnings.md: replace it with ADD's generated view (the original kept as .bak)",
      },
    },
    positionals: { min: 1, max: 1, names: 'PATH' },
    examples: [
      'lore import .orbit',
      'lore import .add --dry-run',
      'lore import ~/.claude/add/library.json',
      'lore import learnings.db --from coia',
      'lore export --out lore.json && lore import lore.json',
    ],
    json: true,
  },
  async run(ctx, args) {
    const source = args.positionals[0] ?? '';
    const from = choiceOption(args, 'from', FROM);
    if (from === 'lore' || (from === undefined && isLoreJson(ctx, source)))
      return importLoreJson(ctx, args, source);
    const ws = await openCommandWorkspace(ctx);
    try {
      const report = await importInterop(ws, resolve(ctx.cwd, source), source, {
        from: from as InteropFormatName | undefined,
        tier: choiceOption(args, 'tier', TIERS),
        replace: flagOption(args, 'replace'),
        dryRun: flagOption(args, 'dry-run'),
        nowMs: ctx.now(),
        rewriteSource: flagOption(args, 'rewrite-source'),
        force: flagOption(args, 'force'),
      });
      return {
        data: report,
        text: formatReport(report, flagOption(args, 'dry-run')),
        exitCode: report.invalid > 0 ? 1 : 0,
      };
    } finally {
      await settleIndex(ws).catch(() => undefined);
      ws.close();
    }
  },
};

/** stdin, or a JSON file that is lore's export (or no format lore knows: lore's import explains). */
function isLoreJson(ctx: CommandContext, source: string): boolean {
  if (source === '-') return true;
  const path = resolve(ctx.cwd, source);
  if (!(statSync(path, { throwIfNoEntry: false })?.isFile() ?? false) || !path.endsWith('.json'))
    return false;
  let text: string;
  let document: unknown;
  try {
    const bytes = readFileSync(path);
    text = withoutByteOrderMark(utf16Text(bytes) ?? bytes.toString('utf8'));
    document = JSON.parse(text);
  } catch {
    return true;
  }
  if ((document as { format?: unknown } | null)?.format === 'lore') return true;
  // a bare list of lore lessons (schemaVersion and a lore id), which COIA's lists could resemble
  const first = Array.isArray(document) ? (document[0] as Record<string, unknown> | undefined) : undefined;
  if (first?.schemaVersion !== undefined && typeof first.id === 'string' && ID_PATTERN.test(first.id))
    return true;
  return !detectInteropFormat([{ path: basename(path), text }]).ok;
}

async function importLoreJson(ctx: CommandContext, args: Parameters<Command['run']>[1], source: string) {
  let text: string;
  try {
    text = withoutByteOrderMark(
      source === '-' ? await ctx.readStdin() : readUtf8(resolve(ctx.cwd, source), source),
    );
  } catch (error) {
    if (error instanceof LoreError) throw error;
    throw new LoreError(
      'usage',
      `cannot read ${source}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  const ws = await openCommandWorkspace(ctx);
  try {
    const report = await importLessons(ws, text, source, {
      tier: choiceOption(args, 'tier', TIERS),
      replace: flagOption(args, 'replace'),
      dryRun: flagOption(args, 'dry-run'),
      force: flagOption(args, 'force'),
    });
    const verb = flagOption(args, 'dry-run') ? 'would import' : 'imported';
    const lines = [
      ...report.problems.map(formatProblem),
      `${verb} ${report.added.length} new, ${report.replaced.length} replaced, ${report.unchanged.length} unchanged, ` +
        `${report.conflicts.length} conflict(s), ${report.invalid} invalid; ${report.votesAdded} vote(s) added`,
    ];
    if (report.conflicts.length > 0)
      lines.push(`conflicts (kept as they are; --replace overwrites): ${report.conflicts.join(', ')}`);
    lines.push(...breadthLines(report, flagOption(args, 'dry-run')));
    return {
      data: report,
      text: lines.join('\n'),
      exitCode: report.invalid > 0 ? (1 as const) : (0 as const),
    };
  } finally {
    await settleIndex(ws).catch(() => undefined);
    ws.close();
  }
}

/** The file's text (UTF-16 with its mark too); one that is not UTF-8 is refused whole, before anything is written. */
function readUtf8(path: string, shown: string): string {
  const bytes = readFileSync(path);
  const wide = utf16Text(bytes);
  if (wide !== undefined) return wide;
  const line = firstNonUtf8Line(bytes);
  if (line !== undefined)
    throw new LoreError('invalid', `${shown}:${line}: not UTF-8 text; nothing was imported`, {
      hint: 'save it as UTF-8 (as `lore export` writes it) and import it again',
    });
  return bytes.toString('utf8');
}

function formatReport(report: InteropImportReport, dryRun: boolean): string {
  const verb = dryRun ? 'would import' : 'imported';
  const lines = [
    ...report.problems.map(formatProblem),
    `${verb} ${report.added.length} new, ${report.replaced.length} replaced, ${report.unchanged.length} unchanged, ` +
      `${report.conflicts.length} conflict(s), ${report.invalid} invalid; ${report.votesAdded} vote(s) added ` +
      `(from ${report.format})`,
  ];
  for (const ref of report.added) lines.push(`  ${dryRun ? 'new' : ref.id}  ${ref.from}  (${ref.tier})`);
  lines.push(...breadthLines(report, dryRun));
  if (report.conflicts.length > 0) {
    lines.push(
      `conflicts (kept as they are; --replace overwrites): ${report.conflicts.map((ref) => `${ref.from} (${ref.id})`).join(', ')}`,
    );
  }
  for (const md of report.markdown) {
    if (md.mismatches.length > 0) {
      lines.push(`${md.file}: the rendered view does not read back the same, so the file was left as it is:`);
      lines.push(...md.mismatches.map((m) => `  ${m}`));
    } else if (md.kept !== undefined) {
      lines.push(`${md.file}: left as it is: ${md.kept}`);
    } else if (md.rewritten) {
      lines.push(
        `${md.file}: backed up as ${md.backup}; rewritten as ADD's generated view (read back: same lessons)`,
      );
    } else {
      lines.push(
        `${md.file}: ADD's generated view reads back the same lessons${dryRun ? ' (nothing written)' : ''}`,
      );
    }
  }
  return lines.join('\n');
}

/** The lessons the breadth check found broad (or scoped by tool alone), with their figures. */
function breadthLines(report: { broad: BroadImport[]; breadthNote?: string }, dryRun: boolean): string[] {
  const lines: string[] = [];
  const held = report.broad.filter((item) => item.held);
  if (report.broad.length > 0)
    lines.push(`breadth check: ${report.broad.length} lesson(s) with a broad trigger:`);
  for (const item of report.broad)
    lines.push(
      `  ${dryRun ? item.from : item.id}  ${item.from}  ${item.breadth.message}${item.breadth.broad ? (item.held ? '; marked needsReview' : '; imported as is (--force)') : ''}`,
    );
  if (held.length > 0)
    lines.push(
      `the ${held.length} marked needsReview are not injected until reviewed: narrow one with \`lore update ID --command ...\`, keep one as it is with \`lore update ID --unset needsReview\` or the dashboard's Review page, or import with --force`,
    );
  if (report.breadthNote !== undefined) lines.push(report.breadthNote);
  return lines;
}
