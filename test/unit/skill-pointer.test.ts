// The hook prefers an aggregated tool skill over that tool's lessons: one pointer, deduped once
// per session, inside the same count and budget; guards still deny.
import fc from 'fast-check';
import { manifestReaders } from '../../src/core/inject/candidate-ordinals.js';
import { describe, expect, it } from 'vitest';
import { selectLessons } from '../../src/core/inject/select-lessons.js';
import { renderSkillPointer } from '../../src/core/inject/skill-pointer.js';
import type { HookEvent, InjectSettings, ManifestSkill } from '../../src/core/inject/types.js';
import type { PlanState } from '../../src/core/inject/plan-injection.js';
import type { Lesson } from '../../src/core/lesson/schema.js';
import { bashEvent, lesson, manifestOf } from '../helpers/manifest.js';

const SKILL: ManifestSkill = { tool: 'pytest', path: '.claude/skills/lore-pytest/SKILL.md', lessons: 5 };
const skills = { 'lore-pytest': SKILL };
const pytest = (n: number, fields: Partial<Lesson> = {}) =>
  lesson({
    summary: `pytest lesson ${n}`,
    tags: ['tool:pytest'],
    commands: ['\\bpytest\\b'],
    priority: 9 - n,
    ...fields,
  });
const call = (command: string): HookEvent => bashEvent(command);
const fresh: PlanState = { seen: new Set(), shownCount: 0, stateAvailable: true };

function select(
  lessons: Lesson[],
  command: string,
  state: PlanState = fresh,
  options: {
    skills?: Record<string, ManifestSkill>;
    settings?: Partial<InjectSettings>;
    exhaustive?: boolean;
  } = {
    skills,
  },
) {
  const manifest = manifestOf(lessons, { settings: options.settings, skills: options.skills });
  return selectLessons({
    event: call(command),
    head: manifest.head,
    ...manifestReaders(manifest),
    repoPaths: [],
    state,
    settings: manifest.head.settings,
    exhaustive: options.exhaustive ?? false,
  }).decision;
}

describe('the skill pointer', () => {
  const [a, b, c] = [pytest(1), pytest(2), pytest(3)];
  const other = lesson({ summary: 'pytest needs CI=1', commands: ['\\bpytest\\b'], priority: 2 });
  const lessons = [a, b, c, other] as Lesson[];

  it.each([true, false])('stands in for the lessons of the skill (exhaustive: %s)', (exhaustive) => {
    const decision = select(lessons, 'pytest -x', fresh, { skills, exhaustive });
    expect(decision.plan.included.map((i) => i.id)).toEqual(['lore-pytest', other.id]);
    expect(decision.plan.included[0]?.skill).toEqual({
      name: 'lore-pytest',
      path: SKILL.path,
      lessons: [a?.id, b?.id, c?.id],
    });
    expect(decision.plan.skipped.map((s) => [s.id, s.reason, s.skill])).toEqual([
      [b?.id, 'in-skill', 'lore-pytest'],
      [c?.id, 'in-skill', 'lore-pytest'],
    ]);
    expect(decision.context).toContain(
      `${renderSkillPointer('lore-pytest', SKILL)}\nMatched here: [lore ${a?.id}] pytest lesson 1`,
    );
    expect(decision.context).not.toContain('pytest lesson 2');
  });

  it('is shown once per session: later calls skip the skill lessons as in-skill', () => {
    const state: PlanState = { seen: new Set(['lore-pytest']), shownCount: 1, stateAvailable: true };
    const decision = select(lessons, 'pytest -x', state);
    expect(decision.plan.included.map((i) => i.id)).toEqual([other.id]);
    expect(decision.plan.skipped.filter((s) => s.reason === 'in-skill').map((s) => s.id)).toEqual([
      a?.id,
      b?.id,
      c?.id,
    ]);
    const elsewhere = select(lessons, 'pytest -x', { ...fresh, seenElsewhere: new Set(['lore-pytest']) });
    expect(elsewhere.plan.included.map((i) => i.id)).toEqual([other.id]);
  });

  it('without the skill in the manifest, the lessons go out one by one', () => {
    const decision = select(lessons, 'pytest -x', fresh, {});
    expect(decision.plan.included.map((i) => i.id)).toEqual([a?.id, b?.id, c?.id]);
  });

  it('user-tier lessons are never covered by a skill', () => {
    const user = pytest(0, { tier: 'user' });
    const decision = select([user, a] as Lesson[], 'pytest -x');
    expect(decision.plan.included.map((i) => i.id)).toEqual([user.id, 'lore-pytest']);
  });

  it('a guard of the skill still denies the call', () => {
    const guard = pytest(0, { type: 'guard', commands: ['\\bpytest\\b.*--forked'] });
    // exhaustive, as `lore explain` runs it: the hook itself stops reading once the call is denied
    const decision = select([guard, a, b] as Lesson[], 'pytest --forked', fresh, {
      skills,
      exhaustive: true,
    });
    expect(decision.plan.denied.map((d) => d.id)).toEqual([guard.id]);
    expect(decision.deny).toContain(`lore guard ${guard.id} blocked this call`);
    expect(decision.plan.included).toEqual([]);
    expect(decision.plan.skipped.map((s) => [s.id, s.reason])).toEqual([
      [a?.id, 'call-denied'],
      [b?.id, 'call-denied'],
    ]);
  });

  it('needs-review and low-confidence lessons do not bring the pointer', () => {
    const decision = select([pytest(1, { needsReview: true }), pytest(2, { confidence: 0.1 })], 'pytest -x');
    expect(decision.plan.included).toEqual([]);
  });

  it('counts as one lesson and fits the budget: the pointer alone when the matched line does not fit', () => {
    const long = pytest(1, { summary: `pytest ${'x'.repeat(270)}` });
    const pointer = renderSkillPointer('lore-pytest', SKILL);
    const decision = select([long], 'pytest -x', fresh, {
      skills,
      settings: { maxChars: 200 + pointer.length },
    });
    expect(decision.plan.included.map((i) => [i.id, i.form, i.text])).toEqual([
      ['lore-pytest', 'summary', pointer],
    ]);
  });

  it('property: the pointer goes out at most once per call, never with its own lessons, within the count', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ skill: fc.boolean(), priority: fc.integer({ min: 1, max: 10 }) }), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.integer({ min: 1, max: 5 }),
        (specs, maxLessons) => {
          const made = specs.map((spec, i) =>
            lesson({
              id: `p${String(i).padStart(9, '0')}`,
              summary: `lesson ${i}`,
              commands: ['\\bpytest\\b'],
              tags: spec.skill ? ['tool:pytest'] : [],
              priority: spec.priority,
            }),
          );
          const { plan } = select(made, 'pytest', fresh, { skills, settings: { maxLessons } });
          const ids = plan.included.map((i) => i.id);
          const inSkill = new Set(made.filter((_, i) => specs[i]?.skill).map((l) => l.id));
          expect(ids.filter((id) => id === 'lore-pytest').length).toBeLessThanOrEqual(1);
          expect(ids.some((id) => inSkill.has(id))).toBe(false);
          expect(ids.length).toBeLessThanOrEqual(maxLessons);
          expect(new Set(ids).size).toBe(ids.length);
        },
      ),
    );
  });
});
