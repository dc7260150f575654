/**
 * The aggregated tool skills on disk: `<repo>/<aggregate.dir>/lore-<tool>/SKILL.md`. lore writes
 * and removes only files carrying its marker; a skill of the same name written by someone else
 * is reported and left alone.
 */
import { mkdirSync, readdirSync, readFileSync, rmdirSync, unlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderSkill, SKILL_MARKER, SKILL_PREFIX } from '../../core/views/plan-skills.js';
import type { SkillPlan } from '../../core/views/plan-skills.js';
import { writeFileAtomic } from '../fs/fs-atomic.js';

export const SKILL_FILE = 'SKILL.md';

export type SkillAction = 'write' | 'unchanged' | 'remove' | 'not-ours';

export type SkillFileChange = {
  name: string;
  /** The tool, for skills lore plans; undefined for a skill removed because its tool fell below. */
  tool: string | undefined;
  path: string;
  lessons: string[];
  action: SkillAction;
};

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Whether lore wrote the file at `path` (it carries lore's marker). */
export function isLoreSkill(text: string | undefined): boolean {
  return text !== undefined && text.includes(SKILL_MARKER);
}

export function skillsDir(projectRoot: string, dir: string): string {
  return resolve(projectRoot, dir);
}

/** What bringing `dir` in line with `plans` takes: writes, removals and files left alone. */
export function planSkillFiles(dir: string, plans: readonly SkillPlan[]): SkillFileChange[] {
  const changes: SkillFileChange[] = [];
  const planned = new Set<string>();
  for (const plan of plans) {
    planned.add(plan.name);
    const path = join(dir, plan.name, SKILL_FILE);
    const current = readText(path);
    const text = renderSkill(plan);
    const action: SkillAction =
      current === undefined
        ? 'write'
        : !isLoreSkill(current)
          ? 'not-ours'
          : current === text
            ? 'unchanged'
            : 'write';
    changes.push({ name: plan.name, tool: plan.tool, path, lessons: plan.lessons.map((l) => l.id), action });
  }
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    entries = [];
  }
  for (const name of entries.sort()) {
    if (!name.startsWith(SKILL_PREFIX) || planned.has(name)) continue;
    const path = join(dir, name, SKILL_FILE);
    if (isLoreSkill(readText(path)))
      changes.push({ name, tool: undefined, path, lessons: [], action: 'remove' });
  }
  return changes;
}

/** Carries out the writes and removals of `planSkillFiles` (the plans give the text). */
export function applySkillFiles(changes: readonly SkillFileChange[], plans: readonly SkillPlan[]): void {
  const byName = new Map(plans.map((plan) => [plan.name, plan]));
  for (const change of changes) {
    if (change.action === 'write') {
      const plan = byName.get(change.name);
      if (plan === undefined) continue;
      mkdirSync(join(change.path, '..'), { recursive: true });
      writeFileAtomic(change.path, renderSkill(plan));
    } else if (change.action === 'remove') {
      // re-checked right before: a person may have taken the file over since it was planned
      if (!isLoreSkill(readText(change.path))) continue;
      unlinkSync(change.path);
      try {
        rmdirSync(join(change.path, '..'));
      } catch {
        // the folder holds other files: they are not lore's
      }
    }
  }
}

/**
 * The skills present for the hook: planned skills whose file exists and is lore's. The hook only
 * ever points at a skill the agent can load.
 */
export function presentSkills(dir: string, plans: readonly SkillPlan[]): SkillPlan[] {
  return plans.filter((plan) => isLoreSkill(readText(join(dir, plan.name, SKILL_FILE))));
}
