import { existsSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { LoreError } from '../../core/errors.js';
import { STATUSES, TIERS } from '../../core/lesson/constants.js';
import { choiceOption, flagOption, stringOption } from '../command.js';
import type { Command } from '../command.js';
import { noteProblems, openCommandWorkspace } from '../open-workspace.js';
import { writeFileAtomic } from '../../store/fs/fs-atomic.js';
import { EXPORT_FORMAT, EXPORT_VERSION } from '../../store/lessons/lore-json.js';
import { INTEROP_FORMATS } from '../../core/interop/interop-format.js';
import type { ExportLesson, InteropFormatName } from '../../core/interop/interop-format.js';
import { findInteropFormat } from '../../core/interop/interop-formats.js';
import { rememberedOrbitIds, writeInteropExport } from '../../store/interop/write-export.js';
import type { ExportWriteOptions } from '../../store/interop/write-export.js';
import {
  exportLedgerPath,
  guardOverwrites,
  readExportLedger,
  recordLoreFiles,
} from '../../store/interop/export-ledger.js';
import { orbitLearningsDir, withFolderLedger } from '../../store/interop/folder-ledger.js';

const TO = ['lore', ...INTEROP_FORMATS] as const;

export const command: Command = {
  spec: {
    usage: 'lore export [--to FORMAT] [--out PATH] [--force] [--tier T] [--status S|any] [--json]',
    description:
      "Writes lessons with their votes as lore's JSON ({format, version, exportedAt, lessons}), to stdout or\n" +
      'to PATH. Every status is included unless --status narrows it. `lore import PATH` reads it back losslessly.\n' +
      "--to writes another tool's format instead: orbit (a folder: --out .orbit), lessons-learned (lessons.json),\n" +
      'add (learnings.json, and library.json for the user tier: --out .add when both), add-md (learnings.md),\n' +
      'coia (JSON, or the learnings table of a SQLite database when PATH ends in .db/.sqlite), cursor (a folder of\n' +
      '.mdc rules: --out .cursor/rules). Lessons imported from a format go back with their own ids and fields.\n' +
      'An existing file is replaced only when lore wrote it (or imported all of it) and it has not changed since;\n' +
      'otherwise the export names it and writes nothing (--force overwrites).',
    options: {
      to: { type: 'string', value: 'FORMAT', description: `${TO.join(' | ')} (default lore)` },
      out: { type: 'string', value: 'PATH', description: 'write to file or folder PATH instead of stdout' },
      force: { type: 'boolean', description: 'overwrite files under --out that lore did not write' },
      tier: { type: 'string', value: 'T', description: TIERS.join(' | ') },
      status: { type: 'string', value: 'S', description: `${STATUSES.join(' | ')} | any (default any)` },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
  },
  async run(ctx, args) {
    const status = choiceOption(args, 'status', [...STATUSES, 'any'] as const) ?? 'any';
    const to = choiceOption(args, 'to', TO) ?? 'lore';
    const tier = choiceOption(args, 'tier', TIERS);
    const ws = await openCommandWorkspace(ctx);
    try {
      const items = await ws.index.list({ status, tier }, ctx.now(), ws.halfLifeDays);
      await noteProblems(ctx, ws);
      const lessons = items
        .map((item) => ({
          ...item.lesson,
          votes: ws.store(item.lesson.tier).readVotes(item.lesson.id).votes,
        }))
        .sort((a, b) => (a.tier === b.tier ? (a.id < b.id ? -1 : 1) : a.tier === 'project' ? -1 : 1));
      const guard = {
        ledger: readExportLedger(exportLedgerPath(ws.store('user').layout.cacheDir)),
        force: flagOption(args, 'force'),
      };
      if (to !== 'lore')
        return exportInterop(ctx, to, lessons, stringOption(args, 'out'), ws.projectRoot, guard);
      const document = {
        format: EXPORT_FORMAT,
        version: EXPORT_VERSION,
        exportedAt: new Date(ctx.now()).toISOString(),
        lessons,
      };
      const out = stringOption(args, 'out');
      if (out === undefined) {
        return { data: document, text: JSON.stringify(document, null, 2) };
      }
      const path = resolve(ctx.cwd, out);
      if (!existsSync(dirname(path))) {
        throw new LoreError('io', `cannot write ${out}: directory ${dirname(path)} does not exist`, {
          hint: 'create it first, or pick another --out path',
        });
      }
      const writes = [{ path, text: `${JSON.stringify(document, null, 2)}\n`, shown: out }];
      guardOverwrites(writes, guard.ledger, { force: guard.force, ownFormat: isLoreExport });
      writeFileAtomic(path, writes[0]?.text ?? '');
      recordLoreFiles(guard.ledger, writes);
      return {
        data: { out: path, lessons: lessons.length },
        text: `exported ${lessons.length} lesson(s) to ${out}`,
      };
    } finally {
      ws.close();
    }
  },
};

function exportInterop(
  ctx: Parameters<Command['run']>[0],
  to: InteropFormatName,
  lessons: ExportLesson[],
  out: string | undefined,
  projectRoot: string | undefined,
  machineGuard: ExportWriteOptions,
) {
  const format = findInteropFormat(to);
  const nowIso = new Date(ctx.now()).toISOString();
  const target = out === undefined ? undefined : { path: resolve(ctx.cwd, out), shown: out };
  // an Orbit folder keeps its ids with it: every machine exporting there reads the same record
  const guard =
    to === 'orbit' && target !== undefined
      ? { ...machineGuard, ledger: withFolderLedger(machineGuard.ledger, orbitLearningsDir(target.path)) }
      : machineGuard;
  const rendered = format.render(lessons, {
    nowIso,
    projectName: basename(projectRoot ?? ctx.cwd),
    // an Orbit lesson keeps the id it had in earlier exports to this folder
    ...(to === 'orbit' && target !== undefined
      ? { remembered: rememberedOrbitIds(guard.ledger, target.path) }
      : {}),
  });
  const written = writeInteropExport(to, rendered, lessons, target, guard);
  for (const skip of rendered.skipped) ctx.note(`left out ${skip.id}: ${skip.reason}`);
  const exported = lessons.length - rendered.skipped.length;
  const data = {
    format: to,
    lessons: exported,
    skipped: rendered.skipped,
    files: written.written,
    ...(written.stdout === undefined ? {} : { text: written.stdout }),
  };
  if (written.stdout !== undefined && !ctx.json) return { data, text: written.stdout.replace(/\n$/, '') };
  return {
    data,
    text: `exported ${exported} lesson(s) as ${to} to ${out ?? 'stdout'} (${written.written.length} file(s))`,
  };
}

/** A file that is lore's own JSON export already: lore's to replace, whoever wrote it. */
function isLoreExport(text: string): boolean {
  try {
    return (JSON.parse(text) as { format?: unknown } | null)?.format === EXPORT_FORMAT;
  } catch {
    return false;
  }
}
