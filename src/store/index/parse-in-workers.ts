/**
 * Parses many lesson files on worker threads (see parse-worker.ts), one chunk per core. Returns
 * undefined when workers are not worth it or not available (too few files, one core, running
 * from TypeScript sources in tests), and the caller parses in its own thread as before.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ParsedFile, ParseRequest } from './parse-worker.js';

/** Below this many files, starting workers (each loads yaml and zod) costs more than it saves. */
export const PARALLEL_PARSE_MIN_FILES = 400;

export async function parseInWorkers(
  files: ParseRequest['files'],
  minFiles = PARALLEL_PARSE_MIN_FILES,
): Promise<Map<string, ParsedFile> | undefined> {
  const cores = Math.min(availableParallelism(), 8);
  const script = new URL('./parse-worker.js', import.meta.url);
  if (files.length < minFiles || cores < 2 || !existsSync(fileURLToPath(script))) return undefined;
  const size = Math.ceil(files.length / cores);
  const chunks = Array.from({ length: cores }, (_, i) => files.slice(i * size, (i + 1) * size)).filter(
    (chunk) => chunk.length > 0,
  );
  try {
    const results = await Promise.all(chunks.map((chunk) => parseChunk(script, chunk)));
    return new Map(results.flat().map((parsed) => [parsed.path, parsed]));
  } catch {
    return undefined; // a worker that failed to start or crashed: parse in this thread instead
  }
}

function parseChunk(script: URL, files: ParseRequest['files']): Promise<ParsedFile[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script);
    worker.once('message', (parsed: ParsedFile[]) => {
      resolve(parsed);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`parse worker exited with code ${code}`)));
    worker.postMessage({ files } satisfies ParseRequest);
  });
}
