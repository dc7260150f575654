/**
 * A prompt is matched lazily, in rank order (the lessons with a command or path first, then those
 * found by tags or words), and stops once the plan is settled: it must show exactly what matching
 * every candidate (`lore explain`) shows, whatever the lessons, the prompt and the session.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { candidateOrdinals, manifestReaders } from '../../src/core/inject/candidate-ordinals.js';
import { promptWords } from '../../src/core/inject/prompt-tokens.js';
import { createMatcher } from '../../src/core/inject/create-matcher.js';
import { selectLessons } from '../../src/core/inject/select-lessons.js';
import type { HookEvent } from '../../src/core/inject/types.js';
import { lesson, manifestOf } from '../helpers/manifest.js';

const lessonArb = fc.record({
  summary: fc.constantFrom(
    'pytest fixtures leak state between tests',
    'docker build cache misses after editing the lockfile',
    'the deploy script needs a dry run first',
    'never force push to the release branch',
    'migrations need a down step',
    'tests for the parser live next to it',
  ),
  commands: fc.subarray([
    '(^|\\s)pytest\\b',
    'git\\s+push',
    'docker\\s+build',
    '^npm (test|run)',
    'terraform\\s+plan',
  ]),
  paths: fc.subarray(['tests/**', 'src/**/*.ts', '**/*.py', 'Dockerfile', 'migrations/*.sql']),
  tags: fc.subarray(['tool:pytest', 'lang:python', 'topic:testing', 'docker', 'tool:git']),
  tools: fc.subarray(['Bash', 'Edit']),
  type: fc.constantFrom('hint' as const, 'hint' as const, 'guard' as const, 'checkpoint' as const),
  priority: fc.integer({ min: 1, max: 9 }),
  confidence: fc.constantFrom(0.3, 0.8, 1),
  needsReview: fc.boolean(),
  errors: fc.constantFrom([], [], ['not found']).map((list) => [...list]),
  contents: fc.constantFrom([], [], ['TODO']).map((list) => [...list]),
  stack: fc.constantFrom([], [], ['rust']).map((list) => [...list]),
});

const prompts = fc.constantFrom(
  'the tests in tests/unit/test_api.py fail, fix them and run pytest',
  'why does docker build take so long? look at the Dockerfile',
  'add a migration in migrations/0042_index.sql and a down step',
  'git push was rejected: sort it out, then run `npm test`',
  'refactor src/api/handlers.ts and the parser tests',
  'summarize the deploy script and its dry run',
  'nothing relevant here at all',
);

describe('prompts stream in rank order', () => {
  it('show what matching every candidate shows (property)', () => {
    fc.assert(
      fc.property(
        fc.array(lessonArb, { minLength: 1, maxLength: 25 }),
        prompts,
        fc.record({
          maxLessons: fc.integer({ min: 1, max: 4 }),
          maxChars: fc.constantFrom(300, 4096),
          sessionLessons: fc.integer({ min: 1, max: 20 }),
          blockSize: fc.constantFrom(1, 4),
          seen: fc.nat({ max: 3 }),
        }),
        (fields, prompt, o) => {
          const lessons = fields.map((f) => lesson(f));
          const manifest = manifestOf(lessons, {
            settings: { maxLessons: o.maxLessons, maxChars: o.maxChars, sessionLessons: o.sessionLessons },
            blockSize: o.blockSize,
          });
          const seen = new Set(lessons.slice(0, o.seen).map((l) => l.id));
          const event: HookEvent = {
            event: 'UserPromptSubmit',
            sessionId: 's',
            agentId: 'main',
            cwd: '/repo',
            prompt,
          };
          const run = (exhaustive: boolean) =>
            selectLessons({
              event,
              head: manifest.head,
              ...manifestReaders(manifest),
              words: manifest.words,
              repoPaths: [],
              state: { seen, shownCount: seen.size, stateAvailable: true },
              settings: manifest.head.settings,
              exhaustive,
            });
          const streamed = run(false);
          const all = run(true);
          expect(streamed.decision.context).toEqual(all.decision.context);
          expect(streamed.decision.plan.included).toEqual(all.decision.plan.included);
          expect(streamed.read).toBeLessThanOrEqual(all.read);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('read every lesson that matches them: by a command or path they name, or by words (property)', () => {
    fc.assert(
      fc.property(fc.array(lessonArb, { minLength: 1, maxLength: 25 }), prompts, (fields, prompt) => {
        const manifest = manifestOf(fields.map((f) => lesson(f)));
        const event: HookEvent = {
          event: 'UserPromptSubmit',
          sessionId: 's',
          agentId: 'main',
          cwd: '/repo',
          prompt,
        };
        const readers = manifestReaders(manifest);
        const candidates = new Set(
          candidateOrdinals(event, manifest.head, [], readers.literals, manifest.words),
        );
        const matcher = createMatcher(event, { repoPaths: [], stack: manifest.head.stack });
        const words = promptWords(prompt);
        for (let n = 0; n < manifest.head.lessonCount; n += 1) {
          const l = readers.readLesson(n);
          const result = l === undefined ? undefined : matcher(l);
          if (l === undefined || result === undefined) continue;
          const matchedBy = result.match?.matchedBy ?? result.skip?.matchedBy ?? [];
          // a tag alone never made a lesson a candidate: it was filed under its words
          const found =
            matchedBy.some(
              (r) => r.startsWith('command:') || r.startsWith('path:') || r.startsWith('words:'),
            ) || l.words.some((w) => words.has(w));
          if (found) expect(candidates.has(n)).toBe(true);
        }
      }),
      { numRuns: 1500 },
    );
  });
});
