/**
 * `lore distill` and `lore scan --distill` end to end: the built CLI against a scripted model
 * endpoint on 127.0.0.1 (test/helpers/model-endpoint.ts), for both API shapes, including an
 * endpoint that times out, one that answers garbage and one that answers a schema-invalid lesson.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';
import { writeCandidate } from '../helpers/distill-candidate.js';
import { lessonAnswer, startModelEndpoint } from '../helpers/model-endpoint.js';
import type { EndpointRequest, Reply } from '../helpers/model-endpoint.js';

const fixtures = fileURLToPath(new URL('../fixtures/transcripts/', import.meta.url));

type DistillJson = {
  provider: string;
  model: string | null;
  endpoint: string;
  results: { id: string; outcome: string; cached: boolean; note?: string; before: string; summary: string }[];
  budget: { day: string; calls: number; tokens: number; dailyCalls: number; dailyTokens: number };
};

const candidateFile = (sandbox: Sandbox, id: string) =>
  sandbox.inRepo('.lore', 'candidates', id, 'lesson.yaml');
const readCandidate = (sandbox: Sandbox, id: string) =>
  parse(readFileSync(candidateFile(sandbox, id), 'utf8')) as Record<string, unknown> & {
    distill?: { status: string; note?: string; heuristic?: { summary: string } };
  };

/** Writes a config file (YAML as JSON) into the user tier or the project. */
function configure(sandbox: Sandbox, where: 'user' | 'project', distill: Record<string, unknown>): void {
  const dir = where === 'user' ? sandbox.userTier : sandbox.inRepo('.lore');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.yaml'), JSON.stringify({ distill }));
}

/** The scripted model: a lesson whose trigger is built from the failed command it was shown. */
function scriptedLesson(request: EndpointRequest): Reply {
  const failed = /"failedCommands": \[\s*"([^"]+)"/.exec(request.prompt)?.[1] ?? '';
  const [exe, sub] = failed.split(' ');
  return {
    text: lessonAnswer({
      summary: `Run \`git pull --rebase\` before \`${exe} ${sub}\` when the remote is ahead`,
      trigger: { commands: [`^${exe}\\s+${sub}\\b`], paths: [], tools: ['Bash'] },
    }),
  };
}

describe('lore distill', () => {
  it('is off until configured, and never runs in the background', async () => {
    const sandbox = createSandbox();
    writeCandidate(sandbox.repo, '0000000001');
    const off = await sandbox.runAsync(['distill']);
    expect(off.code).toBe(1);
    expect(off.stderr).toContain('distillation is off (distill.provider is none)');
    expect(off.stderr).toContain('set distill.provider');
    const background = await sandbox.runAsync(['scan', '--distill', '--background']);
    expect(background.code).toBe(2);
    expect(background.stderr).toContain('--distill does not run in the background');
  });

  it('anthropic: distills, caches by content, prints the budget, and approval keeps the COIA fields', async () => {
    const sandbox = createSandbox();
    const endpoint = await startModelEndpoint(scriptedLesson);
    configure(sandbox, 'user', { provider: 'anthropic', model: 'claude-test', baseUrl: endpoint.url });
    writeCandidate(sandbox.repo, '0000000001');
    const env = { ANTHROPIC_API_KEY: 'sk-test-key' };

    const first = await sandbox.runAsync(['distill', '--json'], { env });
    expect(first.code).toBe(0);
    const run = first.json<DistillJson>();
    expect(run).toMatchObject({
      provider: 'anthropic',
      model: 'claude-test',
      endpoint: `${endpoint.url}/v1/messages`,
    });
    expect(run.results).toEqual([
      {
        id: '0000000001',
        tier: 'project',
        outcome: 'applied',
        cached: false,
        before: '`git push` failed (rejected); what worked: `git pull --rebase`',
        summary: 'Run `git pull --rebase` before `git push` when the remote is ahead',
        tokens: 200,
      },
    ]);
    expect(run.budget).toMatchObject({ calls: 1, tokens: 200, dailyCalls: 20, dailyTokens: 40000 });
    expect(endpoint.requests).toHaveLength(1);
    expect(endpoint.requests[0]?.headers['x-api-key']).toBe('sk-test-key');
    expect(endpoint.requests[0]?.prompt).toContain('git push origin main');
    const record = readCandidate(sandbox, '0000000001');
    expect(record).toMatchObject({
      summary: 'Run `git pull --rebase` before `git push` when the remote is ahead',
      context: 'Pushing a branch that others also push to.',
      commands: ['^git\\s+push\\b'],
      tags: ['tool:git', 'topic:vcs'],
      distill: { status: 'applied', heuristic: { summary: run.results[0]?.before } },
    });
    expect(JSON.stringify(record)).not.toContain('sk-test-key');

    const again = await sandbox.runAsync(['distill'], { env });
    expect(again.stdout).toContain('no candidates to distill');
    expect(again.stdout).toContain('budget today (2');
    expect(again.stdout).toContain('1 of 20 call(s), 200 of 40,000 tokens');
    const named = (await sandbox.runAsync(['distill', '0000000001', '--json'], { env })).json<DistillJson>();
    expect(named.results[0]).toMatchObject({ outcome: 'applied', cached: true });
    expect(endpoint.requests).toHaveLength(1);
    const forced = (
      await sandbox.runAsync(['distill', '00000', '--force', '--json'], { env })
    ).json<DistillJson>();
    expect(forced.results[0]).toMatchObject({ outcome: 'applied', cached: false });
    expect(endpoint.requests).toHaveLength(2);

    // Review shows capture's text beside the model's, with the evidence.
    const shown = await sandbox.runAsync(['candidates', 'show', '0000000001']);
    const rows = shown.stdout.split('\n').filter((line) => line.includes(' │ '));
    expect(rows[0]).toMatch(
      /^heuristic \(lore scan\) +│ distilled \(anthropic claude-test, \d{4}-\d\d-\d\d\)$/,
    );
    expect(rows.join('\n')).toContain('mistake: `git push` failed: rejected');
    expect(rows.join('\n')).toContain('│ context: Pushing a branch that others also push to.');
    expect(shown.stdout).toContain('failed: git push origin main');
    const shownJson = (await sandbox.runAsync(['candidates', 'show', '0000000001', '--json'])).json<{
      distill: {
        status: string;
        heuristic: { summary: string };
        distilled: { action: string };
        evidence: unknown;
      };
    }>().distill;
    expect(shownJson).toMatchObject({
      status: 'applied',
      heuristic: { summary: run.results[0]?.before },
      distilled: { action: 'Run `git pull --rebase` first, then push.' },
      evidence: { commands: ['git push origin main'], paths: [], tools: ['Bash'] },
    });
    const approved = (await sandbox.runAsync(['candidates', 'approve', '0000000001', '--json'])).json<{
      lesson: Record<string, unknown>;
    }>();
    expect(approved.lesson).toMatchObject({
      summary: 'Run `git pull --rebase` before `git push` when the remote is ahead',
      context: 'Pushing a branch that others also push to.',
      observation: expect.stringContaining('rejected'),
      implication: 'The push fails and the agent retries blindly.',
      action: 'Run `git pull --rebase` first, then push.',
      commands: ['^git\\s+push\\b'],
    });
    expect(approved.lesson.distill).toBeUndefined();
  });

  it.each([
    ['garbage', { text: 'Sure! Here is a great lesson for you.' }, /the model's answer is not a JSON object/],
    [
      'a schema-invalid lesson',
      { text: lessonAnswer({ summary: 'Pull first\nthen push' }) },
      /the distilled lesson is not valid \(summary: must be a single line\)/,
    ],
    [
      'a trigger that misses the evidence',
      { text: lessonAnswer({ trigger: { commands: ['^npm\\s+test'], paths: [], tools: [] } }) },
      /does not match the failed command `git push origin main`/,
    ],
  ])(
    'openai: %s leaves the candidate as it was, with a note, and is not asked again',
    async (_name, reply, note) => {
      const sandbox = createSandbox();
      const endpoint = await startModelEndpoint(() => reply);
      configure(sandbox, 'user', { provider: 'openai', model: 'llama-test', baseUrl: `${endpoint.url}/v1` });
      const file = writeCandidate(sandbox.repo, '0000000001');
      const before = readCandidate(sandbox, '0000000001');
      const result = await sandbox.runAsync(['distill']);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(note);
      expect(result.stdout).toContain('the candidate stays as it was');
      expect(endpoint.requests[0]?.path).toBe('/v1/chat/completions');
      expect(endpoint.requests[0]?.headers.authorization).toBeUndefined();
      const after = readCandidate(sandbox, '0000000001');
      expect({ ...after, distill: undefined }).toEqual({ ...before, distill: undefined });
      expect(after.distill).toMatchObject({ status: 'refused', note: expect.stringMatching(note) });
      expect(readFileSync(file, 'utf8')).toContain('note:');
      const shown = await sandbox.runAsync(['candidates', 'show', '0000000001']);
      expect(shown.stdout).toMatch(/^distill: refused \(openai llama-test, \d{4}-\d\d-\d\d\): /m);
      expect(shown.stdout).not.toContain(' │ ');
      expect((await sandbox.runAsync(['distill'])).stdout).toContain('no candidates to distill');
      expect(endpoint.requests).toHaveLength(1);
    },
  );

  it('a timeout fails the call (exit 1), keeps the candidate, and is tried again next run', async () => {
    const sandbox = createSandbox();
    const endpoint = await startModelEndpoint(() => ({ hang: true }));
    configure(sandbox, 'user', {
      provider: 'anthropic',
      model: 'm',
      baseUrl: endpoint.url,
      timeoutSeconds: 1,
    });
    writeCandidate(sandbox.repo, '0000000001');
    const before = readCandidate(sandbox, '0000000001');
    const first = await sandbox.runAsync(['distill']);
    expect(first.code).toBe(1);
    expect(first.stdout).toContain(
      'failed       no answer within 1 s; the candidate stays as it was (asked again next run)',
    );
    expect({ ...readCandidate(sandbox, '0000000001'), distill: undefined }).toEqual({
      ...before,
      distill: undefined,
    });
    expect(readCandidate(sandbox, '0000000001').distill).toMatchObject({ status: 'failed' });
    const second = await sandbox.runAsync(['distill', '--json']);
    expect(second.json<DistillJson>().results[0]?.outcome).toBe('failed');
    expect(endpoint.requests).toHaveLength(2);
    // A timed-out call is charged its worst case: the model may have answered into the void.
    expect(second.json<DistillJson>().budget.calls).toBe(2);
  });

  it('writes a distilled candidate without YAML anchors, so a hand edit of one field keeps it readable', async () => {
    const sandbox = createSandbox();
    const endpoint = await startModelEndpoint(scriptedLesson);
    configure(sandbox, 'user', { provider: 'anthropic', model: 'm', baseUrl: endpoint.url });
    writeCandidate(sandbox.repo, '0000000001');
    expect((await sandbox.runAsync(['distill'])).code).toBe(0);
    const text = readFileSync(candidateFile(sandbox, '0000000001'), 'utf8');
    // capture's fields kept under distill.heuristic share values with the distilled ones
    expect(text).not.toMatch(/(?:^|\s)[&*]a\d+\b/m);
    // the edit a reviewer makes in an editor: the paths line rewritten
    writeFileSync(candidateFile(sandbox, '0000000001'), text.replace(/^paths:.*$/m, 'paths: ["src/**"]'));
    const shown = await sandbox.runAsync(['candidates', 'show', '0000000001']);
    expect(shown.stderr).toBe('');
    expect(shown.code).toBe(0);
    expect(readCandidate(sandbox, '0000000001').paths).toEqual(['src/**']);
  });

  it('names a candidate file it cannot read, with its line, and exits 1 when that is all there was', async () => {
    const sandbox = createSandbox();
    const endpoint = await startModelEndpoint(scriptedLesson);
    configure(sandbox, 'user', { provider: 'anthropic', model: 'm', baseUrl: endpoint.url });
    writeCandidate(sandbox.repo, '0000000001');
    writeFileSync(candidateFile(sandbox, '0000000001'), 'summary: "unclosed\n');
    // the parser finds the quote unclosed at the end of the file
    const shown = '.lore/candidates/0000000001/lesson.yaml:2';

    const alone = await sandbox.runAsync(['distill', '--json']);
    expect(alone.code).toBe(1);
    expect(alone.json<DistillJson & { problems: { file: string; line: number }[] }>().problems).toEqual([
      expect.objectContaining({ file: '.lore/candidates/0000000001/lesson.yaml', line: 2 }),
    ]);
    expect(alone.stderr).toContain(`${shown}`);
    expect(alone.stderr).toContain('candidate 0000000001 skipped: invalid YAML');

    writeCandidate(sandbox.repo, '0000000002', 'git push origin dev');
    const beside = await sandbox.runAsync(['distill']);
    expect(beside.code).toBe(0);
    expect(beside.stderr).toContain(shown);
    expect(beside.stdout).toContain('1 candidate file(s) skipped');
    expect(beside.stdout).toContain('1 distilled');
    expect(endpoint.requests).toHaveLength(1);
  });

  it('stops at the daily budget and says so', async () => {
    const sandbox = createSandbox();
    const endpoint = await startModelEndpoint(scriptedLesson);
    configure(sandbox, 'user', { provider: 'anthropic', model: 'm', baseUrl: endpoint.url, dailyCalls: 1 });
    writeCandidate(sandbox.repo, '0000000001');
    writeCandidate(sandbox.repo, '0000000002', 'git push origin dev');
    const run = (await sandbox.runAsync(['distill', '--json'])).json<DistillJson>();
    expect(run.results.map((r) => r.outcome).sort()).toEqual(['applied', 'over-budget']);
    expect(run.results.find((r) => r.outcome === 'over-budget')?.note).toBe(
      'the daily budget of 1 call(s) is spent (distill.dailyCalls)',
    );
    expect(endpoint.requests).toHaveLength(1);
    const text = await sandbox.runAsync(['distill', '--limit', '1']);
    expect(text.stdout).toContain('not sent: the daily budget of 1 call(s) is spent');
    expect(text.stdout).toContain('1 of 1 call(s)');
  });

  it('takes endpoints, key variables and programs from the user config only', async () => {
    const sandbox = createSandbox();
    writeCandidate(sandbox.repo, '0000000001');
    configure(sandbox, 'project', {
      provider: 'anthropic',
      model: 'm',
      baseUrl: 'https://collector.example.com',
    });
    const remote = await sandbox.runAsync(['distill']);
    expect(remote.code).toBe(1);
    expect(remote.stderr).toContain(
      '.lore/config.yaml sets distill.baseUrl; lore takes it from your user config only',
    );
    configure(sandbox, 'project', { provider: 'command', command: ['sh', '-c', 'cat ~/.ssh/id_rsa'] });
    expect((await sandbox.runAsync(['distill'])).stderr).toContain('sets distill.command');
    configure(sandbox, 'project', { provider: 'openai', model: 'm', apiKeyEnv: 'AWS_SECRET_ACCESS_KEY' });
    expect((await sandbox.runAsync(['distill'])).stderr).toContain('sets distill.apiKeyEnv');

    const endpoint = await startModelEndpoint(scriptedLesson);
    configure(sandbox, 'project', { provider: 'anthropic', model: 'm', baseUrl: endpoint.url });
    const local = await sandbox.runAsync(['distill', '--json']);
    expect(local.json<DistillJson>().results[0]?.outcome).toBe('applied');

    configure(sandbox, 'project', { provider: 'anthropic', model: 'm' });
    const keyless = await sandbox.runAsync(['distill', '0000000001', '--force']);
    expect(keyless.code).toBe(1);
    expect(keyless.stderr).toContain(
      'ANTHROPIC_API_KEY is not set; https://api.anthropic.com needs an API key',
    );
  });

  it('scan --distill distills what the scan found', async () => {
    const sandbox = createSandbox();
    const endpoint = await startModelEndpoint(scriptedLesson);
    configure(sandbox, 'user', { provider: 'anthropic', model: 'm', baseUrl: endpoint.url, dailyCalls: 3 });
    const transcripts = join(sandbox.base, 'transcripts');
    cpSync(join(fixtures, 'claude-code'), transcripts, { recursive: true });
    const scan = await sandbox.runAsync(['scan', '--path', transcripts, '--distill', '--json']);
    expect(scan.code).toBe(0);
    const data = scan.json<{ candidates: { id: string }[]; distill: DistillJson }>();
    expect(data.candidates.length).toBeGreaterThan(3);
    expect(data.distill.results.length).toBe(data.candidates.length);
    expect(data.distill.budget.calls).toBeLessThanOrEqual(3);
    expect(endpoint.requests.length).toBe(data.distill.budget.calls);
    expect(data.distill.results.filter((r) => r.outcome === 'over-budget').length).toBeGreaterThan(0);
  });
});
