// Hybrid search on a held-out set (test/fixtures/search-eval/set.json): `npm run eval` runs it
// after the capture eval. No real embedding model can be fetched here, so the scripted embedding
// server (scripts/embedding-server.mjs: a hashed bag of words and a frozen synonym table) stands in
// for one; the figures measure lore's plumbing and blend, not a model. Real figures depend on the
// model a user configures.
//
// The set's queries were written after the synonym table was frozen, each phrased without the
// words of the lesson it should find: the script refuses a query that shares a word (or a word
// minus a plural/-ing/-ed ending) with its target, and a table whose fingerprint differs from the
// one the set was written against. It imports the lessons into a temporary repository, embeds them
// with `lore sync --embed`'s code, and prints recall@5 for BM25 (`lore search`) and for
// `lore search --hybrid`, query by query. Target: hybrid at least 20 points above lexical.
//
// `--json` prints the figures as data.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddingServer, synonymsFingerprint } from './embedding-server.mjs';
import { STOP_WORDS } from '../dist/core/search/fts-query.js';
import { embedWorkspace } from '../dist/store/embed/embed-workspace.js';
import { openEmbeddingProvider } from '../dist/store/embed/embedding-settings.js';
import { searchLessonsWith } from '../dist/store/embed/hybrid-lessons.js';
import { openWorkspace } from '../dist/store/workspace/workspace.js';

const set = JSON.parse(
  readFileSync(fileURLToPath(new URL('../test/fixtures/search-eval/set.json', import.meta.url)), 'utf8'),
);
const bin = fileURLToPath(new URL('../dist/cli/bin.js', import.meta.url));
const json = process.argv.includes('--json');
const TARGET_GAIN = 0.2;
const K = 5;

const stem = (word) => word.replace(/(ing|ed|es|s)$/, '').replace(/e$/, '');
const words = (text) =>
  new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP_WORDS.has(w)).map(stem));

function checkSet() {
  if (set.synonymsFingerprint !== synonymsFingerprint())
    throw new Error(
      `the scripted server's synonym table changed (${synonymsFingerprint()}, the set was written against ${set.synonymsFingerprint}): changing it would tune the eval`,
    );
  const byId = new Map(set.lessons.map((lesson) => [lesson.id, lesson]));
  for (const { query, target } of set.queries) {
    const lesson = byId.get(target);
    if (!lesson) throw new Error(`query "${query}": no lesson ${target}`);
    const shared = [...words(query)].filter((w) => words(lesson.summary).has(w));
    if (shared.length > 0) throw new Error(`query "${query}" shares ${shared.join(', ')} with its lesson`);
  }
}

async function main() {
  checkSet();
  const base = mkdtempSync(join(tmpdir(), 'lore-eval-search-'));
  const server = await startEmbeddingServer({ dimensions: 256 });
  try {
    const repo = join(base, 'repo');
    const loreHome = join(base, 'home', '.lore');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(loreHome, { recursive: true });
    writeFileSync(
      join(loreHome, 'config.yaml'),
      JSON.stringify({
        embeddings: { provider: 'openai', url: `${server.url}/v1`, model: 'scripted-bow-256' },
      }),
    );
    const env = { ...process.env, HOME: join(base, 'home'), LORE_HOME: loreHome, NO_COLOR: '1' };
    const now = '2026-01-01T00:00:00.000Z';
    const file = join(base, 'lessons.json');
    writeFileSync(
      file,
      JSON.stringify({
        format: 'lore',
        version: 1,
        exportedAt: now,
        lessons: set.lessons.map((lesson) => ({
          schemaVersion: 1,
          slug: lesson.id,
          createdAt: now,
          updatedAt: now,
          ...lesson,
        })),
      }),
    );
    for (const args of [['init'], ['import', file]]) {
      const run = spawnSync(process.execPath, [bin, ...args], { cwd: repo, env, encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`lore ${args.join(' ')}: ${run.stderr}`);
    }
    const ws = await openWorkspace({ cwd: repo, env });
    try {
      const report = await embedWorkspace(ws, openEmbeddingProvider(ws, env));
      if (report.failure) throw new Error(report.failure.message);
      const rows = [];
      for (const { query, target } of set.queries) {
        const ask = async (hybrid) =>
          (
            await searchLessonsWith(ws, env, {
              query,
              filter: { status: 'active', limit: K },
              nowMs: Date.parse(now),
              hybrid,
            })
          ).results.map((r) => r.lesson.id);
        const lexical = await ask(false);
        const hybrid = await ask(true);
        rows.push({
          query,
          target,
          lexical: lexical.indexOf(target) + 1,
          hybrid: hybrid.indexOf(target) + 1,
        });
      }
      const recall = (key) => rows.filter((row) => row[key] > 0).length / rows.length;
      const figures = {
        queries: rows.length,
        lessons: set.lessons.length,
        lexicalRecallAt5: recall('lexical'),
        hybridRecallAt5: recall('hybrid'),
        gain: recall('hybrid') - recall('lexical'),
        target: TARGET_GAIN,
      };
      if (json) {
        console.log(JSON.stringify({ ...figures, rows }, null, 2));
        return;
      }
      const pct = (x) => `${(x * 100).toFixed(1)}%`;
      console.log(
        'hybrid search eval (scripted embedding model: measures the plumbing and the blend, not a model)',
      );
      console.log(
        `  ${rows.length} held-out queries over ${set.lessons.length} lessons: lexical recall@${K} ${pct(figures.lexicalRecallAt5)}, hybrid recall@${K} ${pct(figures.hybridRecallAt5)} (+${(figures.gain * 100).toFixed(1)} points; target +${TARGET_GAIN * 100})`,
      );
      for (const row of rows) {
        const at = (rank) => (rank === 0 ? '-' : `#${rank}`);
        console.log(`  ${at(row.lexical).padStart(3)} ${at(row.hybrid).padStart(3)}  ${row.query}`);
      }
      if (figures.gain < TARGET_GAIN) process.exitCode = 1;
    } finally {
      ws.close();
    }
  } finally {
    await server.close();
    rmSync(base, { recursive: true, force: true });
  }
}

await main();
