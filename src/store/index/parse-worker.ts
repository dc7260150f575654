/**
 * A worker thread that reads and parses lesson files for a large refresh (a sync, a first index,
 * a pull that changed many files), so that YAML parsing, the slowest part, runs on every core.
 * It receives `{ files: [{ path, shown }] }` and answers with one `ParsedFile` per file, in order.
 */
import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { parseLessonYaml } from '../../core/lesson/lesson-yaml.js';
import type { ParsedLesson } from '../../core/lesson/lesson-yaml.js';

export type ParseRequest = { files: { path: string; shown: string }[] };
/** `text` is undefined when the file is gone. */
export type ParsedFile = { path: string; text: string | undefined; result?: ParsedLesson };

function parseFile(path: string, shown: string): ParsedFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path, text: undefined };
    throw error;
  }
  return { path, text, result: parseLessonYaml(text, shown) };
}

parentPort?.on('message', (request: ParseRequest) => {
  parentPort?.postMessage(request.files.map(({ path, shown }) => parseFile(path, shown)));
});
