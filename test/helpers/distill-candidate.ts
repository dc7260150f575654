/**
 * A lesson candidate written straight into a repository's review queue, as `lore scan` writes one
 * for a failed `git push` (its body names the failed command): a fixed input for the distillation
 * tests, whatever capture's wording does meanwhile.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const NOW = '2026-11-20T10:00:00.000Z';

/** Writes the candidate (YAML is a superset of JSON) and returns its file. */
export function writeCandidate(repo: string, id: string, command = 'git push origin main'): string {
  const key = command.split(' ').slice(0, 2).join(' ');
  const record = {
    schemaVersion: 1,
    id,
    slug: 'push-failed',
    summary: `\`${key}\` failed (rejected); what worked: \`git pull --rebase\``,
    body: `Found by \`lore scan\` (error-fix, tier 2) in a claude-code session.\n\nWhat failed:\n\n\`\`\`\n${command}\n\`\`\`\n\nError:\n\n\`\`\`\n! [rejected] main -> main (fetch first)\n\`\`\`\n`,
    mistake: `\`${key}\` failed: rejected`,
    remediation: 'what worked: `git pull --rebase`',
    tools: ['Bash'],
    commands: [`^\\s*${key.replace(' ', '\\s+')}\\b`],
    paths: [],
    tags: ['tool:git'],
    category: 'technical',
    severity: 'medium',
    type: 'hint',
    tier: 'project',
    priority: 5,
    confidence: 0.6,
    needsReview: false,
    status: 'active',
    evidence: [{ kind: 'session', ref: `s-${id}` }],
    sourceSessions: [`s-${id}`],
    occurrences: 1,
    contentHash: `hash-${id}`,
    createdAt: NOW,
    createdBy: 'lore scan',
    updatedAt: NOW,
    capture: {
      kind: 'error-fix',
      tier: 2,
      agents: ['claude-code'],
      tool: 'Bash',
      trigger: key,
      signals: {
        fixConfirmed: true,
        userCorrection: false,
        causal: false,
        hang: false,
        dataLoss: false,
        silentFailure: false,
        selfReported: false,
      },
      projects: [repo],
      anchors: [`t.jsonl:${id}`],
      evidence: [{ file: 't.jsonl', line: 3 }],
      firstSeen: NOW,
      lastSeen: NOW,
    },
  };
  const file = join(repo, '.lore', 'candidates', id, 'lesson.yaml');
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify(record, null, 2));
  return file;
}
