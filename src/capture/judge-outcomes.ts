/**
 * Outcome-linked feedback, the I/O half (`lore scan` runs it after capture): for each of this
 * workspace's own tiers, the injections of its audit log not yet judged, grouped by session; the
 * transcripts of those sessions (the files scan knows whose name carries the session id, and the
 * file the hook was told of), read again whole and turned into calls (`collectCalls`); each
 * injection judged by its delivery form (core/feedback/judge-injections.ts) with the hook's own
 * matcher over this workspace's manifest deciding whether a lesson's trigger matches a call.
 *
 * Each judged injection is appended once to `<cache>/outcomes.jsonl` under the tier's outcomes
 * lock (two scans at once judge it once); `prevented` and `repeated` also go to the lesson's
 * `feedback.jsonl` as an automatic helpful / not-helpful (`source: outcome`, task
 * `outcome:<injection id>`), before the outcome line, so a scan killed between the two is made
 * whole by the next one. Then the floor: a lesson it holds gets `needsReview` (the hook skips it).
 */
import { statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { LoreError } from '../core/errors.js';
import type { Injection } from '../core/feedback/audit-injections.js';
import { judgeSession } from '../core/feedback/judge-injections.js';
import type { Judged, LessonFacts } from '../core/feedback/judge-injections.js';
import { belowOutcomeFloor, tallyOutcomes } from '../core/feedback/outcome-floor.js';
import { createMatcher } from '../core/inject/create-matcher.js';
import { parseHookPayload } from '../core/inject/parse-hook-input.js';
import type { ManifestHead, ManifestLesson } from '../core/inject/types.js';
import type { Lesson } from '../core/lesson/schema.js';
import { collectCalls } from '../core/outcome/call-outcome.js';
import type { ReplayCall } from '../core/outcome/call-outcome.js';
import { mistakeClass } from '../core/outcome/error-class.js';
import { fileEvents } from './file-events.js';
import { knownTranscripts } from './scan-transcripts.js';
import { withLocksAsync } from '../store/fs/lock.js';
import { repoRelativePaths } from '../store/fs/paths.js';
import { appendFeedback, readFeedback } from '../store/lessons/feedback.js';
import { resolveLesson, updateLesson } from '../store/lessons/lesson-writes.js';
import type { Workspace } from '../store/workspace/workspace.js';
import { proposedGuards } from '../store/feedback/held-lessons.js';
import {
  OUTCOMES_LOCK,
  appendHold,
  appendOutcome,
  lastHolds,
  readAuditInjections,
  readHolds,
  readOutcomes,
} from '../store/feedback/outcome-log.js';
import { ownCacheDirs } from '../store/replay/read-last-replay.js';

/** A transcript untouched this long is a finished session: what it cannot decide is judged as is. */
export const SETTLE_MS = 30 * 60_000;
/** Injections older than this are left alone: their transcripts are read no more (a first scan after an upgrade would read them all). */
export const OUTCOME_HORIZON_MS = 30 * 86_400_000;

export type OutcomeReport = {
  judged: number;
  prevented: number;
  repeated: number;
  noise: number;
  unlinked: number;
  /** Injections their session's transcript cannot decide yet (judged by a later scan). */
  pending: number;
  /** Sessions with injections whose transcript no scan has read (judged once one has). */
  sessionsWithoutTranscript: number;
  /** Audit lines that were not audit records, skipped. */
  malformedAuditLines: number;
  /** Injections of lessons no longer in the store, left unjudged. */
  unknownLessons: number;
  /** Lessons this scan held for review (their mistake kept coming back). */
  heldForReview: string[];
  /** Advisory lessons whose mistake kept coming back after they were shown: make them guards. */
  guardProposals: string[];
};

export function emptyOutcomeReport(): OutcomeReport {
  return {
    judged: 0,
    prevented: 0,
    repeated: 0,
    noise: 0,
    unlinked: 0,
    pending: 0,
    sessionsWithoutTranscript: 0,
    malformedAuditLines: 0,
    unknownLessons: 0,
    heldForReview: [],
    guardProposals: [],
  };
}

export type JudgeOptions = {
  nowMs: number;
  /** The scan state file: the transcripts scan knows. */
  statePath: string;
};

/** A transcript call as the hook would have seen it (Claude Code tool names), or undefined. */
function callPayload(call: ReplayCall): Record<string, unknown> {
  const key = call.keys[0];
  const file = key === undefined || key === '?' ? undefined : key;
  const [tool, input]: [string, Record<string, unknown>] =
    call.family === 'shell'
      ? ['Bash', { command: call.command ?? '' }]
      : call.family === 'edit'
        ? ['Edit', { ...call.input, file_path: file }]
        : call.family === 'read'
          ? ['Read', { file_path: file }]
          : [call.tool, call.input];
  return {
    hook_event_name: 'PreToolUse',
    session_id: call.session,
    cwd: call.project ?? '/',
    tool_name: tool,
    tool_input: input,
  };
}

/** Whether a lesson's trigger matches a call: the hook's own matcher over the manifest's lesson. */
function triggerTester(head: ManifestHead, projectRoot: string | undefined) {
  const matchers = new WeakMap<ReplayCall, ReturnType<typeof createMatcher> | null>();
  return (lesson: ManifestLesson, call: ReplayCall): boolean => {
    let matcher = matchers.get(call);
    if (matcher === undefined) {
      const event = parseHookPayload(callPayload(call));
      matcher =
        event === undefined
          ? null
          : createMatcher(event, {
              repoPaths: repoRelativePaths(event.paths ?? [], projectRoot ?? call.project ?? event.cwd),
              stack: head.stack,
            });
      matchers.set(call, matcher);
    }
    return matcher?.(lesson)?.match !== undefined;
  };
}

type SessionTranscript = { calls: ReplayCall[]; settled: boolean } | undefined;

/** The calls of one session from the files that may hold it, or undefined when none does. */
function readSession(session: string, files: readonly string[], nowMs: number): SessionTranscript {
  let newest = 0;
  const calls: ReplayCall[] = [];
  let found = false;
  for (const file of files) {
    const stat = statSync(file, { throwIfNoEntry: false });
    if (stat === undefined) continue;
    const collected = collectCalls(fileEvents(file).events);
    const chosen = collected.sessions.filter((s) => s.session === session);
    if (chosen.length === 0) continue;
    found = true;
    newest = Math.max(newest, stat.mtimeMs);
    for (const s of chosen) calls.push(...s.calls);
  }
  if (!found) return undefined;
  if (files.length > 1 && calls.every((call) => call.time !== undefined))
    calls.sort((a, b) => (a.time as string).localeCompare(b.time as string));
  return { calls, settled: nowMs - newest > SETTLE_MS };
}

const SESSION_IN_NAME = /[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}|-([0-9a-f]{8})\.jsonl?$/gi;

/**
 * The known transcripts by the session ids their names carry: Claude Code `<session>.jsonl`, Codex
 * `rollout-<time>-<session>.jsonl` (and their subagents' files under `<session>/subagents/`),
 * Gemini `session-<time>-<first 8 of the session>.json(l)`.
 */
function filesBySession(known: readonly { path: string }[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const { path } of known) {
    // Claude Code 2.1 keeps a session's subagents under `<session>/subagents/`
    const name = path.split(sep).slice(-3).join('/');
    for (const match of name.matchAll(SESSION_IN_NAME)) {
      const key = (match[1] ?? match[0]).toLowerCase();
      const list = out.get(key) ?? [];
      list.push(path);
      out.set(key, list);
    }
  }
  return out;
}

/** The files that may hold a session: the hook's `transcript_path`, and known files named after it. */
function sessionFiles(session: string, injections: readonly Injection[], byName: Map<string, string[]>) {
  const lower = session.toLowerCase();
  const named = byName.get(lower) ?? byName.get(lower.slice(0, 8)) ?? [];
  const told = injections.flatMap((injection) =>
    injection.transcript === undefined ? [] : [injection.transcript],
  );
  return [...new Set([...told, ...named])];
}

/**
 * Judges the injections not judged yet in every own tier's audit log, records the verdicts, and
 * holds the lessons the floor catches.
 */
export async function judgeOutcomes(ws: Workspace, options: JudgeOptions): Promise<OutcomeReport> {
  const report = emptyOutcomeReport();
  const at = new Date(options.nowMs).toISOString();
  const touched = new Set<string>();
  let lessons: { facts: (id: string) => LessonFacts | undefined } | undefined;
  const lessonFacts = async () => {
    if (lessons !== undefined) return lessons;
    const { workspaceManifest } = await import('../store/manifest/manifest-build.js');
    const manifest = await workspaceManifest(ws, options.nowMs);
    const byId = new Map<string, ManifestLesson>();
    for (const block of manifest.blocks) for (const lesson of block) if (lesson) byId.set(lesson.id, lesson);
    const listed = await ws.index.list({ status: 'active' }, options.nowMs, ws.halfLifeDays);
    const full = new Map<string, Lesson>(listed.map((item) => [item.lesson.id, item.lesson] as const));
    const test = triggerTester(manifest.head, ws.projectRoot);
    const facts = new Map<string, LessonFacts | undefined>();
    lessons = {
      facts: (id) => {
        if (facts.has(id)) return facts.get(id);
        const compiled = byId.get(id);
        const lesson = full.get(id);
        const value =
          compiled === undefined || lesson === undefined
            ? undefined
            : { mistake: mistakeClass(lesson), triggers: (call: ReplayCall) => test(compiled, call) };
        facts.set(id, value);
        return value;
      },
    };
    return lessons;
  };
  const byName = filesBySession(knownTranscripts(options.statePath));

  for (const dir of ownCacheDirs(ws)) {
    const audit = readAuditInjections(dir);
    report.malformedAuditLines += audit.malformed;
    const done = new Set(readOutcomes(dir).map((record) => record.injection));
    const open = new Map<string, Injection>();
    const since = options.nowMs - OUTCOME_HORIZON_MS;
    for (const injection of audit.injections)
      if (!done.has(injection.id) && Date.parse(injection.time) >= since) open.set(injection.id, injection);
    if (open.size === 0) continue;
    const bySession = new Map<string, Injection[]>();
    for (const injection of open.values()) {
      const list = bySession.get(injection.session) ?? [];
      list.push(injection);
      bySession.set(injection.session, list);
    }
    const { facts } = await lessonFacts();
    const judged: Judged[] = [];
    for (const [session, injections] of bySession) {
      const transcript = readSession(session, sessionFiles(session, injections, byName), options.nowMs);
      if (transcript === undefined) {
        report.sessionsWithoutTranscript += 1;
        continue;
      }
      const result = judgeSession(injections, transcript, facts);
      report.pending += result.pending.length;
      report.unknownLessons += result.unknownLessons.length;
      judged.push(...result.judged);
    }
    if (judged.length === 0) continue;
    await withLocksAsync([join(dir, 'locks', OUTCOMES_LOCK)], async () => {
      const recorded = new Set(readOutcomes(dir).map((record) => record.injection));
      for (const record of judged) {
        if (recorded.has(record.injection)) continue;
        if (record.verdict === 'prevented' || record.verdict === 'repeated') {
          const where = record.evidence ? ` at ${record.evidence.file}:${record.evidence.line}` : '';
          try {
            await appendFeedback(ws, record.lesson, {
              helpful: record.verdict === 'prevented',
              task: `outcome:${record.injection}`,
              session: record.session,
              at,
              source: 'outcome',
              note: `${record.form}: ${record.verdict}${where}`,
            });
            touched.add(record.lesson);
          } catch (error) {
            if (!(error instanceof LoreError)) throw error;
          }
        }
        appendOutcome(dir, { ...record, judgedAt: at });
        recorded.add(record.injection);
        report.judged += 1;
        report[record.verdict] += 1;
      }
    });
  }
  report.heldForReview = await holdBelowFloor(ws, [...touched], options.nowMs);
  report.guardProposals = (await proposedGuards(ws, options.nowMs)).map((proposal) => proposal.id);
  return report;
}

/** Holds (needsReview) the lessons among `ids` that outcome feedback puts below the floor. */
async function holdBelowFloor(ws: Workspace, ids: readonly string[], nowMs: number): Promise<string[]> {
  const held: string[] = [];
  for (const id of ids) {
    let target;
    try {
      target = await resolveLesson(ws, id);
    } catch (error) {
      if (error instanceof LoreError) continue;
      throw error;
    }
    if (target.tier === 'org' || target.lesson.needsReview) continue;
    const cacheDir = ws.store(target.tier).layout.cacheDir;
    const last = lastHolds(readHolds(cacheDir)).get(target.id);
    const keptAt = last?.action === 'kept' ? last.at : undefined;
    const verdicts = readFeedback(ws, target).filter((item) => item.source === 'outcome');
    const tally = tallyOutcomes(verdicts, keptAt);
    if (!belowOutcomeFloor(tally)) continue;
    await updateLesson(ws, target.id, { needsReview: true }, { nowMs });
    appendHold(cacheDir, { lesson: target.id, action: 'held', at: new Date(nowMs).toISOString(), ...tally });
    held.push(target.id);
  }
  return held;
}
