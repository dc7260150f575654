import { describe, expect, it } from 'vitest';
import { parseReplayReport } from '../../src/core/analytics/parse-replay-report.js';
import {
  isoWeekOf,
  outcomesPerWeek,
  parseOutcomeLines,
  summarizeLessonOutcomes,
} from '../../src/core/analytics/summarize-outcomes.js';
import type { OutcomeRecord } from '../../src/core/feedback/outcome-record.js';

const DAY_MS = 86_400_000;
const dayOf = (date: string) => Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);

function outcome(over: Partial<OutcomeRecord> & Pick<OutcomeRecord, 'injectedAt'>): OutcomeRecord {
  const lesson = over.lesson ?? 'L1';
  const session = over.session ?? 's1';
  return {
    injection: `${session}/${over.injectedAt}/${lesson}`,
    lesson,
    session,
    judgedAt: '2027-01-10T00:00:00.000Z',
    form: 'after-call',
    verdict: 'prevented',
    linkedBy: 'call-id',
    ...over,
  };
}

describe('isoWeekOf', () => {
  it.each([
    ['2026-01-01', '2026-W01', '2025-12-29'], // a Thursday: week 1 of its own year
    ['2025-12-29', '2026-W01', '2025-12-29'], // a Monday of December in week 1 of the next year
    ['2024-12-30', '2025-W01', '2024-12-30'],
    ['2021-01-03', '2020-W53', '2020-12-28'], // a Sunday of January in the last week of the year before
    ['2026-12-31', '2026-W53', '2026-12-28'], // 2026 has 53 weeks
    ['2027-01-03', '2026-W53', '2026-12-28'],
    ['2027-01-04', '2027-W01', '2027-01-04'],
    ['2026-11-22', '2026-W47', '2026-11-16'],
    ['1970-01-01', '1970-W01', '1969-12-29'],
  ])('%s is in %s, which starts on %s', (date, week, monday) => {
    const found = isoWeekOf(dayOf(date));
    expect(found.week).toBe(week);
    expect(found.monday).toBe(dayOf(monday));
  });

  it('gives the seven days from a Monday one label, and the next Monday another', () => {
    const monday = dayOf('2026-12-28');
    const labels = Array.from({ length: 8 }, (_, n) => isoWeekOf(monday + n).week);
    expect(labels).toEqual([...Array<string>(7).fill('2026-W53'), '2027-W01']);
  });
});

describe('outcomesPerWeek', () => {
  it('counts verdicts by the week of the injection, across a year boundary, zeros included', () => {
    const records = [
      outcome({ injectedAt: '2026-12-24T10:00:00.000Z', verdict: 'noise' }), // 2026-W52
      outcome({ injectedAt: '2026-12-31T23:59:59.000Z', verdict: 'prevented' }), // 2026-W53
      outcome({ injectedAt: '2027-01-03T12:00:00.000Z', verdict: 'noise', lesson: 'L2' }), // 2026-W53
      outcome({ injectedAt: '2027-01-04T00:00:00.000Z', verdict: 'repeated' }), // 2027-W01
      outcome({ injectedAt: '2027-01-05T00:00:00.000Z', verdict: 'unlinked' }), // 2027-W01
      outcome({ injectedAt: '2026-12-01T00:00:00.000Z', verdict: 'prevented' }), // before the window
    ];
    const weeks = outcomesPerWeek(records, { nowMs: Date.parse('2027-01-06T08:00:00Z'), weeks: 4 });
    expect(weeks).toEqual([
      { week: '2026-W51', start: '2026-12-14', prevented: 0, repeated: 0, noise: 0, unlinked: 0 },
      { week: '2026-W52', start: '2026-12-21', prevented: 0, repeated: 0, noise: 1, unlinked: 0 },
      { week: '2026-W53', start: '2026-12-28', prevented: 1, repeated: 0, noise: 1, unlinked: 0 },
      { week: '2027-W01', start: '2027-01-04', prevented: 0, repeated: 1, noise: 0, unlinked: 1 },
    ]);
  });

  it('counts an injection judged twice once, by its newest judgement', () => {
    const first = outcome({
      injectedAt: '2027-01-05T00:00:00.000Z',
      verdict: 'noise',
      judgedAt: '2027-01-05T01:00:00Z',
    });
    const again = { ...first, verdict: 'prevented' as const, judgedAt: '2027-01-06T01:00:00Z' };
    const [week] = outcomesPerWeek([again, first], { nowMs: Date.parse('2027-01-06T08:00:00Z'), weeks: 1 });
    expect(week).toMatchObject({ prevented: 1, noise: 0 });
  });
});

describe('parseOutcomeLines', () => {
  const good = JSON.stringify(outcome({ injectedAt: '2027-01-05T00:00:00.000Z' }));
  it.each([
    ['a torn last line', `${good}\n${good.slice(0, 40)}`, 1, 1, [2]],
    ['blank lines (nothing)', `\n${good}\n\n${good}\n`, 2, 0, []],
    ['an unknown verdict', `${good.replace('"prevented"', '"helped"')}\n${good}`, 1, 1, [1]],
    ['an unknown delivery form', good.replace('"after-call"', '"sideways"'), 0, 1, [1]],
    ['no lesson', JSON.stringify({ ...JSON.parse(good), lesson: undefined }), 0, 1, [1]],
    ['a time that is not one', good.replaceAll('2027-01-05T00:00:00.000Z', 'yesterday'), 0, 1, [1]],
    ['an array, a number, null', '[]\n42\nnull', 0, 3, [1, 2, 3]],
  ])('%s', (_, text, records, malformed, at) => {
    const parsed = parseOutcomeLines(text);
    expect(parsed.records).toHaveLength(records);
    expect(parsed.malformed).toBe(malformed);
    expect(parsed.malformedAt).toEqual(at);
  });

  it('keeps a record from a newer lore with fields it does not know', () => {
    const parsed = parseOutcomeLines(
      JSON.stringify({ ...JSON.parse(good), extra: 1, linkedBy: 'telepathy' }),
    );
    expect(parsed.records[0]).toMatchObject({ lesson: 'L1', verdict: 'prevented', linkedBy: 'none' });
  });
});

describe('summarizeLessonOutcomes', () => {
  it('sums each lesson by verdict and form, with its newest injection', () => {
    const summary = summarizeLessonOutcomes([
      outcome({ injectedAt: '2027-01-01T00:00:00.000Z', verdict: 'prevented' }),
      outcome({ injectedAt: '2027-01-03T00:00:00.000Z', verdict: 'noise', form: 'guard', session: 's2' }),
      outcome({ injectedAt: '2027-01-02T00:00:00.000Z', verdict: 'repeated' }),
      outcome({ injectedAt: '2027-01-02T00:00:00.000Z', verdict: 'repeated' }), // the same injection again
      outcome({ injectedAt: '2027-01-02T00:00:00.000Z', verdict: 'unlinked', lesson: 'L2' }),
    ]);
    expect(summary.get('L1')).toEqual({
      prevented: 1,
      repeated: 1,
      noise: 1,
      unlinked: 0,
      total: 3,
      byForm: {
        'after-call': { prevented: 1, repeated: 1, noise: 0, unlinked: 0 },
        guard: { prevented: 0, repeated: 0, noise: 1, unlinked: 0 },
      },
      last: {
        verdict: 'noise',
        form: 'guard',
        injectedAt: '2027-01-03T00:00:00.000Z',
        judgedAt: '2027-01-10T00:00:00.000Z',
        session: 's2',
      },
    });
    expect(summary.get('L2')?.total).toBe(1);
    expect(summary.has('L3')).toBe(false);
  });
});

describe('parseReplayReport', () => {
  const lesson = {
    id: 'L1',
    summary: 'run pytest with CI=1',
    type: 'hint',
    toolOnly: false,
    fires: 10,
    hits: 4,
    misses: 1,
    noise: 6,
    prevented: 2,
    precision: 0.4,
    byForm: { 'after-call': { fires: 10, hits: 4, misses: 1, noise: 6, prevented: 2 } },
    recurrences: 3,
    asCheckpoint: { denials: 5, prevented: 4 },
  };
  const report = {
    version: 1,
    at: '2026-11-21T09:00:00.000Z',
    options: { sources: ['claude-code'], paths: [], since: null, asOf: true, lessons: [] },
    counts: {
      files: 3,
      sessions: 4,
      brokenLines: 1,
      missingResults: 0,
      orphanResults: 0,
      clockBackwards: 0,
      unknownTools: 2,
      subagentCalls: 0,
    },
    calls: 660,
    callsWithInjection: 53,
    injections: 60,
    bytes: 30_000,
    injectionsPer100Calls: 9.09,
    bytesPer100Calls: 4545.45,
    guardDenials: 1,
    checkpointDenials: 0,
    lessons: [lesson],
    suggestions: [{ lesson: 'L1', kind: 'narrow', text: 'narrow it', trigger: { commands: ['pytest'] } }],
  };

  it('reads a report as written', () => {
    expect(parseReplayReport(JSON.stringify(report))).toEqual({ ok: true, report });
  });

  it('fills what a reader can do without, and drops suggestions it cannot read', () => {
    const { byForm: _, recurrences: __, asCheckpoint: ___, precision: ____, ...bare } = lesson;
    const parsed = parseReplayReport(
      JSON.stringify({
        ...report,
        counts: undefined,
        checkpointDenials: undefined,
        lessons: [bare],
        suggestions: [{ lesson: 'L1', kind: 'shout', text: 'x' }, 'nonsense'],
      }),
    );
    expect(parsed.ok && parsed.report.lessons[0]).toMatchObject({
      byForm: {},
      recurrences: 0,
      precision: 0.4,
    });
    expect(parsed.ok && parsed.report.counts.files).toBe(0);
    expect(parsed.ok && parsed.report.suggestions).toEqual([]);
  });

  it.each([
    ['not JSON', '{"version": 1,', /not JSON/],
    ['another version', JSON.stringify({ ...report, version: 2 }), /version 2, expected 1/],
    ['no time', JSON.stringify({ ...report, at: 'soon' }), /no valid `at`/],
    ['a total that is not a count', JSON.stringify({ ...report, calls: -1 }), /calls is not a count/],
    [
      'a lesson figure missing',
      JSON.stringify({ ...report, lessons: [{ ...lesson, noise: '6' }] }),
      /\(L1\): noise is not a count/,
    ],
    [
      'a lesson without an id',
      JSON.stringify({ ...report, lessons: [{ fires: 1 }] }),
      /lessons\[0\] has no id/,
    ],
    ['an array', '[]', /expected a JSON object/],
  ])('refuses %s, saying why', (_, text, message) => {
    const parsed = parseReplayReport(text);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.message).toMatch(message);
  });
});
