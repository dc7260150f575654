import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CandidateRecord } from '../../src/core/capture/merge-candidate.js';
import { noSignals } from '../../src/core/capture/episode.js';
import { applyDistilled, noteDistill, triggerMismatch } from '../../src/core/distill/apply-distilled.js';
import { candidateEvidence } from '../../src/core/distill/candidate-evidence.js';
import {
  admitCall,
  budgetDay,
  estimateTokens,
  ledgerFor,
  settleCall,
} from '../../src/core/distill/distill-budget.js';
import type { BudgetLedger } from '../../src/core/distill/distill-budget.js';
import { distillInfoOf, heuristicText } from '../../src/core/distill/distill-info.js';
import { distillPrompt } from '../../src/core/distill/distill-prompt.js';
import { readDistillAnswer } from '../../src/core/distill/read-distill-answer.js';
import type { DistilledLesson } from '../../src/core/distill/read-distill-answer.js';

const NOW = '2026-11-26T10:00:00.000Z';
const META = { provider: 'anthropic', model: 'test-model', nowIso: NOW, key: 'k1' };

/** A candidate as `lore scan` writes one for a failed shell command. */
function shellCandidate(overrides: Partial<CandidateRecord> = {}): CandidateRecord {
  return {
    schemaVersion: 1,
    id: '0123456789',
    slug: 'git-push-failed',
    summary: '`git push` failed (rejected); what worked: `git pull --rebase && git push`',
    body: [
      'Found by `lore scan` (error-fix, tier 2) in a claude-code session.',
      '',
      'What failed:',
      '',
      '```',
      'git push origin main',
      '```',
      '',
      'Error:',
      '',
      '```',
      '! [rejected] main -> main (fetch first)',
      '```',
      '',
      'What worked:',
      '',
      '```',
      'git pull --rebase && git push origin main',
      '```',
      '',
    ].join('\n'),
    mistake: '`git push` failed: rejected',
    remediation: 'what worked: `git pull --rebase && git push`',
    tools: ['Bash'],
    commands: ['^\\s*git\\s+push\\b'],
    paths: [],
    tags: ['tool:git', 'severity:medium'],
    category: 'technical',
    severity: 'medium',
    type: 'hint',
    tier: 'project',
    priority: 5,
    confidence: 0.6,
    needsReview: false,
    status: 'active',
    evidence: [{ kind: 'session', ref: 's1' }],
    sourceSessions: ['s1'],
    occurrences: 1,
    contentHash: 'abcdef0123456789',
    createdAt: NOW,
    createdBy: 'lore scan',
    updatedAt: NOW,
    capture: {
      kind: 'error-fix',
      tier: 2,
      agents: ['claude-code'],
      tool: 'Bash',
      trigger: '^\\s*git\\s+push\\b',
      signals: noSignals(),
      projects: ['/home/[user]/proj'],
      anchors: ['t.jsonl:3'],
      evidence: [{ file: 't.jsonl', line: 3 }],
      firstSeen: NOW,
      lastSeen: NOW,
    },
    ...overrides,
  };
}

/** A candidate for a failed edit of a file in the project. */
function editCandidate(): CandidateRecord {
  return shellCandidate({
    summary: 'Edit failed (String to replace not found)',
    body: 'Found by `lore scan` (error-fix, tier 2) in a claude-code session.\n\nWhat failed: Edit /home/[user]/proj/src/app.ts\n\nError:\n\n```\nString to replace not found\n```\n',
    tools: ['Edit'],
    commands: [],
    paths: ['src/app.ts'],
    capture: { ...shellCandidate().capture, tool: 'Edit', trigger: 'src/app.ts' },
  });
}

const lesson = (overrides: Partial<DistilledLesson> = {}): DistilledLesson => ({
  summary: 'Run `git pull --rebase` before `git push` when the remote is ahead',
  context: 'Pushing to a shared branch.',
  observation: 'The push was rejected because the remote had new commits.',
  implication: 'Blind retries fail the same way.',
  action: 'Pull with --rebase, then push.',
  trigger: { commands: ['^git\\s+push\\b'], paths: [], tools: ['Bash'] },
  tags: ['Topic:VCS'],
  ...overrides,
});

describe('readDistillAnswer', () => {
  const valid = JSON.stringify(lesson());
  it.each([
    ['bare JSON', valid, true],
    ['a fenced block', `\`\`\`json\n${valid}\n\`\`\``, true],
    ['JSON inside prose', `Here is the lesson:\n${valid}\nHope it helps.`, true],
    [
      'no trigger and no tags (defaults)',
      JSON.stringify({ ...lesson(), trigger: undefined, tags: undefined }),
      true,
    ],
    ['prose only', 'I cannot help with that.', false],
    ['an empty answer', '', false],
    ['broken JSON', '{"summary": "x", ', false],
    ['a missing COIA field', JSON.stringify({ ...lesson(), action: undefined }), false],
    ['a wrong type', JSON.stringify({ ...lesson(), tags: 'tool:git' }), false],
  ])('%s', (_name, text, ok) => {
    expect(readDistillAnswer(text).ok).toBe(ok);
  });

  it('says what is wrong', () => {
    expect(readDistillAnswer('no json here')).toEqual({
      ok: false,
      note: 'the model\'s answer is not a JSON object: "no json here"',
    });
    const missing = readDistillAnswer(JSON.stringify({ summary: 'x' }));
    expect(missing.ok ? '' : missing.note).toMatch(
      /^the model's answer lacks the asked-for fields \(context: /,
    );
  });
});

describe('candidateEvidence', () => {
  it.each([
    [
      'a failed shell command',
      shellCandidate(),
      { commands: ['git push origin main'], paths: [], tools: ['Bash'] },
    ],
    [
      'a failed edit, its path made repository-relative',
      editCandidate(),
      { commands: [], paths: ['src/app.ts'], tools: ['Edit'] },
    ],
    [
      'a distilled candidate: the heuristic triggers, not the model’s',
      {
        ...shellCandidate(),
        tools: ['Read'],
        distill: { status: 'applied', provider: 'x', at: NOW, heuristic: heuristicText(shellCandidate()) },
      },
      { commands: ['git push origin main'], paths: [], tools: ['Bash'] },
    ],
    [
      "a #lesson block's shell trigger",
      shellCandidate({
        body: 'Found by `lore scan` (lesson-block, tier 1) in a codex session.\n\nThe agent\'s #lesson block: {"tool":"Bash","trigger":"cargo test --all","mistake":"m","fix":"f","tags":[]}\n',
      }),
      { commands: ['cargo test --all'], paths: [], tools: ['Bash'] },
    ],
    [
      'a #lesson block about another tool: its trigger is not a command',
      shellCandidate({
        body: 'The agent\'s #lesson block: {"tool":"Edit","trigger":"src/app.ts","tags":[]}\n',
      }),
      { commands: [], paths: [], tools: ['Bash'] },
    ],
  ])('%s', (_name, record, expected) => {
    expect(candidateEvidence(record as CandidateRecord)).toEqual(expected);
  });
});

describe('triggerMismatch', () => {
  const evidence = { commands: ['git push origin main'], paths: ['src/app.ts'], tools: ['Bash', 'Edit'] };
  const none = { commands: [], paths: [], tools: [] };
  it.each([
    ['no suggestion', none],
    ['a matching command', { ...none, commands: ['^git\\s+push'] }],
    ['a matching glob', { ...none, paths: ['src/**/*.ts'] }],
    ['a glob without a slash (any depth)', { ...none, paths: ['*.ts'] }],
    ['a tool of the evidence, in any case', { ...none, tools: ['bash'] }],
  ])('accepts %s', (_name, trigger) => {
    expect(triggerMismatch(trigger, evidence)).toBeUndefined();
  });

  it.each([
    [
      'a command that misses',
      { ...none, commands: ['^git\\s+pull'] },
      evidence,
      /does not match the failed command `git push origin main`/,
    ],
    ['a glob that misses', { ...none, paths: ['lib/**'] }, evidence, /does not match src\/app.ts/],
    ['another tool', { ...none, tools: ['Write'] }, evidence, /the suggested tool Write is not the one/],
    [
      'a command with no failed command to check it on',
      { ...none, commands: ['x'] },
      { ...evidence, commands: [] },
      /shows no failed command/,
    ],
    [
      'a glob with no path to check it on',
      { ...none, paths: ['x'] },
      { ...evidence, paths: [] },
      /shows no file path/,
    ],
  ])('refuses %s', (_name, trigger, against, note) => {
    expect(triggerMismatch(trigger, against)).toMatch(note);
  });
});

describe('applyDistilled', () => {
  it('replaces the wording, keeps the heuristic text beside it, and merges tags', () => {
    const before = shellCandidate();
    const applied = applyDistilled(before, lesson(), META);
    expect(applied.ok).toBe(true);
    const record = applied.ok ? applied.record : before;
    expect(record).toMatchObject({
      summary: lesson().summary,
      context: 'Pushing to a shared branch.',
      action: 'Pull with --rebase, then push.',
      commands: ['^git\\s+push\\b'],
      tools: ['Bash'],
      tags: ['tool:git', 'severity:medium', 'topic:vcs'],
      contentHash: before.contentHash,
      updatedAt: NOW,
    });
    expect(record.mistake).toBeUndefined();
    expect(distillInfoOf(record)).toEqual({
      status: 'applied',
      provider: 'anthropic',
      model: 'test-model',
      at: NOW,
      key: 'k1',
      heuristic: heuristicText(before),
    });
    // Applied twice (a forced second distillation), the snapshot is still capture's text.
    const again = applyDistilled(record, lesson({ summary: 'Pull before you push' }), META);
    expect(again.ok && distillInfoOf(again.record)?.heuristic?.summary).toBe(before.summary);
  });

  it('keeps the candidate’s triggers when the model suggests none', () => {
    const applied = applyDistilled(
      shellCandidate(),
      lesson({ trigger: { commands: [], paths: [], tools: [] } }),
      META,
    );
    expect(applied.ok && applied.record.commands).toEqual(['^\\s*git\\s+push\\b']);
  });

  it.each([
    ['a two-line summary', lesson({ summary: 'Pull first\nthen push' }), /summary: must be a single line/],
    ['a summary over 280 characters', lesson({ summary: 'x'.repeat(281) }), /summary: must be at most 280/],
    ['an empty COIA field', lesson({ action: '  ' }), /action: must not be empty/],
    ['a tag with a space', lesson({ tags: ['tool git'] }), /tags\.\d: must not contain spaces/],
    [
      'a regex that can backtrack catastrophically (never run on the evidence)',
      lesson({ trigger: { commands: ['(a+)+$'], paths: [], tools: [] } }),
      /commands\.0:/,
    ],
    [
      'an invalid regex',
      lesson({ trigger: { commands: ['git push ('], paths: [], tools: [] } }),
      /commands\.0: is not a valid regular expression/,
    ],
    [
      'an absolute glob',
      lesson({ trigger: { commands: [], paths: ['/etc/passwd'], tools: [] } }),
      /paths\.0: must be relative/,
    ],
    [
      'a regex that misses the failed command',
      lesson({ trigger: { commands: ['^npm\\s+test'], paths: [], tools: [] } }),
      /does not match the failed command/,
    ],
  ])('refuses %s', (_name, distilled, note) => {
    const applied = applyDistilled(shellCandidate(), distilled, META);
    expect(applied.ok).toBe(false);
    expect(applied.ok ? '' : applied.note).toMatch(note);
  });

  it('checks path triggers against the file the failed call acted on', () => {
    const good = applyDistilled(
      editCandidate(),
      lesson({ trigger: { commands: [], paths: ['src/**/*.ts'], tools: ['Edit'] } }),
      META,
    );
    expect(good.ok && good.record.paths).toEqual(['src/**/*.ts']);
    const bad = applyDistilled(
      editCandidate(),
      lesson({ trigger: { commands: [], paths: ['docs/**'], tools: [] } }),
      META,
    );
    expect(bad.ok).toBe(false);
  });

  it('notes a refusal without touching the text, and keeps an earlier distillation', () => {
    const before = shellCandidate();
    const noted = noteDistill(before, 'refused', 'garbage', { provider: 'openai', model: 'm', nowIso: NOW });
    expect({ ...noted, distill: undefined }).toEqual({ ...before, distill: undefined });
    expect(distillInfoOf(noted)).toEqual({
      status: 'refused',
      note: 'garbage',
      provider: 'openai',
      model: 'm',
      at: NOW,
    });
    const applied = applyDistilled(before, lesson(), META);
    const distilled = applied.ok ? applied.record : before;
    const failed = noteDistill(distilled, 'failed', 'timeout', {
      provider: 'openai',
      model: 'm',
      nowIso: NOW,
    });
    expect(failed.summary).toBe(lesson().summary);
    expect(distillInfoOf(failed)?.heuristic?.summary).toBe(before.summary);
  });
});

describe('distillPrompt', () => {
  it('sends the heuristic text and the evidence, redacted again', () => {
    const record = shellCandidate({
      body: `${shellCandidate().body as string}\nThe user said: "use token sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345 and mail bob@example.com"`,
    });
    const prompt = distillPrompt(record, { names: ['alice'] });
    expect(prompt.user).toContain('"failedCommands": [\n    "git push origin main"\n  ]');
    expect(prompt.user).toContain(JSON.stringify(record.summary));
    expect(prompt.user).not.toContain('sk-ant-api03');
    expect(prompt.user).not.toContain('bob@example.com');
    expect(prompt.user).toContain('[REDACTED:api-key]');
    expect(prompt.system).toMatch(/one JSON object/);
  });

  it('is the same for a candidate before and after it was distilled (one cache entry)', () => {
    const before = shellCandidate();
    const applied = applyDistilled(before, lesson(), META);
    expect(applied.ok && distillPrompt(applied.record)).toEqual(distillPrompt(before));
  });
});

describe('the daily budget', () => {
  const limits = { dailyCalls: 5, dailyTokens: 1000 };

  it.each([
    ['a fresh day', ledgerFor(undefined, '2026-11-26'), 300, true],
    [
      'yesterday’s spending does not count',
      ledgerFor({ day: '2026-11-25', calls: 5, tokens: 1000 }, '2026-11-26'),
      300,
      true,
    ],
    ['the calls are spent', { day: '2026-11-26', calls: 5, tokens: 0 }, 1, false],
    ['the tokens would run over', { day: '2026-11-26', calls: 0, tokens: 800 }, 201, false],
    ['exactly the tokens left', { day: '2026-11-26', calls: 0, tokens: 800 }, 200, true],
  ])('%s', (_name, ledger, reserve, ok) => {
    expect(admitCall(ledger, limits, reserve).ok).toBe(ok);
  });

  it('takes the day from the ISO time, and estimates tokens on the safe side', () => {
    expect(budgetDay(NOW)).toBe('2026-11-26');
    expect(estimateTokens('x'.repeat(30))).toBe(10);
  });

  it('never spends more than the limits when every spend stays within its reservation', () => {
    type Call = { reserve: number; used: number; reached: boolean };
    /** Every state the ledger passes through: after each reservation and each settlement. */
    const states = (budget: typeof limits, calls: Call[]): BudgetLedger[] => {
      const seen: BudgetLedger[] = [];
      calls.reduce(
        (ledger, call) => {
          const admission = admitCall(ledger, budget, call.reserve);
          if (!admission.ok) return ledger;
          const spent = call.reached
            ? { calls: 1 as const, tokens: Math.floor(call.reserve * call.used) }
            : { calls: 0 as const, tokens: 0 };
          const settled = settleCall(admission.ledger, { day: ledger.day, tokens: call.reserve }, spent);
          seen.push(admission.ledger, settled);
          return settled;
        },
        ledgerFor(undefined, '2026-11-26'),
      );
      return seen;
    };
    fc.assert(
      fc.property(
        fc.record({
          dailyCalls: fc.integer({ min: 0, max: 8 }),
          dailyTokens: fc.integer({ min: 0, max: 5000 }),
        }),
        fc.array(
          fc.record({
            reserve: fc.integer({ min: 1, max: 2000 }),
            used: fc.double({ min: 0, max: 1, noNaN: true }),
            reached: fc.boolean(),
          }),
          { maxLength: 30 },
        ),
        (budget, calls) =>
          states(budget, calls).every(
            (ledger) => ledger.calls <= budget.dailyCalls && ledger.tokens <= budget.dailyTokens,
          ),
      ),
    );
  });
});
