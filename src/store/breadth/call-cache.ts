/**
 * The call cache: the newest tool calls `lore scan` read and what became of them (see
 * core/breadth/cached-call.ts), one JSON file in the tier's cache dir, written whole and
 * atomically once per scan. A missing file means scan never ran; a damaged one reads as empty and
 * says so, and the next scan writes a fresh one.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CALL_OUTCOMES } from '../../core/outcome/call-outcome.js';
import type { CachedCall } from '../../core/breadth/cached-call.js';
import { writeFileAtomic } from '../fs/fs-atomic.js';

/** Relative to a tier's cache dir, beside the scan state. */
export const CALL_CACHE_FILE = join('capture', 'call-cache.json');

export type CallCacheRead =
  | { status: 'ok'; calls: CachedCall[]; skipped: number }
  | { status: 'missing' | 'damaged'; calls: []; skipped: 0 };

type StoredCallCache = { version: 1; calls: readonly unknown[] };

function isCachedCall(value: unknown): value is CachedCall {
  if (value === null || typeof value !== 'object') return false;
  const call = value as Record<string, unknown>;
  return (
    typeof call.id === 'string' &&
    typeof call.session === 'string' &&
    typeof call.tool === 'string' &&
    Array.isArray(call.keys) &&
    (CALL_OUTCOMES as readonly unknown[]).includes(call.outcome)
  );
}

export function callCachePath(cacheDir: string): string {
  return join(cacheDir, CALL_CACHE_FILE);
}

/** The cached calls; entries of another shape are skipped and counted. */
export function readCallCache(path: string): CallCacheRead {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { status: 'missing', calls: [], skipped: 0 };
  }
  try {
    const parsed = JSON.parse(text) as Partial<StoredCallCache>;
    if (parsed.version !== 1 || !Array.isArray(parsed.calls))
      return { status: 'damaged', calls: [], skipped: 0 };
    const calls = parsed.calls.filter(isCachedCall);
    return { status: 'ok', calls, skipped: parsed.calls.length - calls.length };
  } catch {
    return { status: 'damaged', calls: [], skipped: 0 };
  }
}

export function writeCallCache(path: string, calls: readonly CachedCall[]): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, JSON.stringify({ version: 1, calls } satisfies StoredCallCache));
}
