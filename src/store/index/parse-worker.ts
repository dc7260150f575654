/**
 * A worker thread that reads and loads lesson files for a large refresh (a sync, a first index,
 * a pull that changed many files), so that YAML parsing, the slowest part, runs on every core.
 * It receives `{ files: [{ path, shown, tier, id }] }` and answers with one `ParsedFile` per file,
 * in order, loaded by the one lesson loader (the same rules as in the index's own thread).
 */
import { parentPort } from 'node:worker_threads';
import { parseLessonYaml } from '../../core/lesson/lesson-yaml.js';
import type { Tier } from '../../core/lesson/schema.js';
import { loadLesson } from '../lessons/load-lesson.js';
import { NotUtf8Error, readUtf8File } from '../fs/read-utf8.js';
import type { LoadedLesson } from '../lessons/load-lesson.js';

/** `shown`: the file as problems name it; `tier` and `id`: where it lives. */
export type ParseRequest = { files: { path: string; shown: string; tier: Tier; id: string }[] };
/** `text` is undefined when the file is gone. */
export type ParsedFile = { path: string; text: string | undefined; result?: LoadedLesson };

function parseFile({ path, shown, tier, id }: ParseRequest['files'][number]): ParsedFile {
  let text: string;
  try {
    text = readUtf8File(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path, text: undefined };
    if (!(error instanceof NotUtf8Error)) throw error;
    // reported like a file that does not parse: every other lesson still loads
    const problem = { file: shown, line: error.line, message: error.message, severity: 'error' as const };
    return { path, text: '', result: { ok: false, problems: [problem] } };
  }
  return { path, text, result: loadLesson({ text, file: shown, tier, id }, parseLessonYaml) };
}

parentPort?.on('message', (request: ParseRequest) => {
  parentPort?.postMessage(request.files.map(parseFile));
});
