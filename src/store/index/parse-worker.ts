/**
 * A worker thread that reads and loads lesson files for a large refresh (a sync, a first index,
 * a pull that changed many files), so that YAML parsing, the slowest part, runs on every core.
 * It receives `{ files: [{ path, shown, tier, id }] }` and answers with one `ParsedFile` per file,
 * in order, loaded by the one lesson loader (the same rules as in the index's own thread).
 */
import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { parseLessonYaml } from '../../core/lesson/lesson-yaml.js';
import type { Tier } from '../../core/lesson/schema.js';
import { loadLesson } from '../lessons/load-lesson.js';
import type { LoadedLesson } from '../lessons/load-lesson.js';

/** `shown`: the file as problems name it; `tier` and `id`: where it lives. */
export type ParseRequest = { files: { path: string; shown: string; tier: Tier; id: string }[] };
/** `text` is undefined when the file is gone. */
export type ParsedFile = { path: string; text: string | undefined; result?: LoadedLesson };

function parseFile({ path, shown, tier, id }: ParseRequest['files'][number]): ParsedFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path, text: undefined };
    throw error;
  }
  return { path, text, result: loadLesson({ text, file: shown, tier, id }, parseLessonYaml) };
}

parentPort?.on('message', (request: ParseRequest) => {
  parentPort?.postMessage(request.files.map(parseFile));
});
