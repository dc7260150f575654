/**
 * Moves the old flat layout (`lessons/<id>.yaml` + `lessons/<id>.votes.jsonl`) into one directory
 * per lesson. The new file is written before the old one is removed, so a crash loses nothing.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseDocument } from 'yaml';
import { createLessonId, ID_RANDOM_BYTES, isLessonId, slugify } from '../../core/lesson/lesson-id.js';
import { patchLessonYaml } from '../../core/lesson/lesson-yaml.js';
import { SLUG_PATTERN } from '../../core/lesson/constants.js';
import type { Workspace } from '../workspace/workspace.js';
import { afterWrite } from '../workspace/after-write.js';

export type LayoutMove = { from: string; to: string; id: string; problem?: string };

export async function migrateLayout(
  ws: Workspace,
  options: { dryRun: boolean; nowMs: number },
): Promise<LayoutMove[]> {
  const moves: LayoutMove[] = [];
  for (const store of ws.tiers) {
    for (const file of store.list().legacyFiles) {
      const name = basename(file).replace(/\.ya?ml$/, '');
      const text = readFileSync(file, 'utf8');
      const doc = parseDocument(text);
      if (doc.errors.length > 0) {
        moves.push({
          from: file,
          to: file,
          id: name,
          problem: `invalid YAML: ${doc.errors[0]?.message.split('\n')[0] ?? ''}; fix it and run again`,
        });
        continue;
      }
      const declared = doc.get('id');
      let id =
        typeof declared === 'string' && isLessonId(declared) ? declared : isLessonId(name) ? name : undefined;
      const patch: Record<string, unknown> = {};
      if (id === undefined || existsSync(store.lessonDir(id).dir)) {
        do id = createLessonId(randomBytes(ID_RANDOM_BYTES));
        while (existsSync(store.lessonDir(id).dir));
      }
      if (doc.get('id') !== id) patch.id = id;
      if (typeof doc.get('slug') !== 'string') {
        const summary = doc.get('summary');
        patch.slug = SLUG_PATTERN.test(name) ? name : slugify(typeof summary === 'string' ? summary : name);
      }
      const target = store.lessonDir(id);
      moves.push({ from: file, to: target.yamlPath, id });
      if (options.dryRun) continue;
      const content = Object.keys(patch).length > 0 ? patchLessonYaml(text, patch) : text;
      if (!store.createLessonWithId(id, content)) {
        moves[moves.length - 1] = {
          from: file,
          to: target.yamlPath,
          id,
          problem: 'target directory appeared meanwhile; run again',
        };
        continue;
      }
      const legacyVotes = join(store.layout.lessonsDir, `${name}.votes.jsonl`);
      if (existsSync(legacyVotes)) renameSync(legacyVotes, target.votesPath);
      unlinkSync(file);
    }
  }
  if (moves.length > 0 && !options.dryRun) for (const store of ws.tiers) await afterWrite(ws, store.tier);
  else ws.index.invalidate();
  return moves;
}
