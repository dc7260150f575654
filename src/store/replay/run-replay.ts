/**
 * `lore replay` over a workspace: its manifest (the one `lore explain` builds, in memory), its
 * active lessons (their type, mistake, creation and the sessions they were captured from), the
 * sessions the transcripts held run through the hook's pipeline (`replaySession`), judged and
 * summarized. Reads the workspace only: session state and the audit log are never touched.
 */
import { manifestReaders } from '../../core/inject/candidate-ordinals.js';
import type { Manifest } from '../../core/inject/types.js';
import type { Lesson } from '../../core/lesson/schema.js';
import type { CallCounts, SessionCalls } from '../../core/outcome/call-outcome.js';
import { mistakeClass } from '../../core/outcome/error-class.js';
import type { JudgedLesson } from '../../core/replay/judge-replay.js';
import { isToolOnly } from '../../core/breadth/check-breadth.js';
import { carriedTimes, existsFromIndex, lessonBirths } from '../../core/replay/lesson-existence.js';
import type { Birth } from '../../core/replay/lesson-existence.js';
import { replaySession, triggerMatches } from '../../core/replay/replay-calls.js';
import type { ReplayHosts, SessionReplay } from '../../core/replay/replay-calls.js';
import { callPayloads, pathsInside, sessionCwd } from '../../core/replay/replay-payload.js';
import type { ReplayReport } from '../../core/replay/replay-report.js';
import { summarizeReplay } from '../../core/replay/summarize-replay.js';
import { parseHookPayload } from '../../core/inject/parse-hook-input.js';
import type { Workspace } from '../workspace/workspace.js';

export type ReplaySource = {
  sessions: readonly SessionCalls[];
  files: number;
  brokenLines: number;
  counts: CallCounts;
};

export type ReplayOptions = {
  options: ReplayReport['options'];
  hosts: ReplayHosts;
  nowMs: number;
  onProgress?: (done: number, total: number) => void;
};

export type ReplayRun = {
  report: ReplayReport;
  sessions: SessionReplay[];
  /** `--as-of`: the first call index of a session at which a lesson existed. */
  existsFrom?: (session: SessionCalls, lesson: string) => number;
};

export function judgedLesson(lesson: Lesson): JudgedLesson {
  return {
    id: lesson.id,
    summary: lesson.summary,
    type: lesson.type,
    toolOnly: isToolOnly(lesson),
    ...((lesson.errors ?? []).length > 0 ? { waits: true } : {}),
    mistakeClass: mistakeClass(lesson),
  };
}

/** The workspace's active lessons and its manifest, as the hook would read them now. */
export async function replayLessons(
  ws: Workspace,
  nowMs: number,
): Promise<{ manifest: Manifest; lessons: Lesson[] }> {
  const { workspaceManifest } = await import('../manifest/manifest-build.js');
  const manifest = await workspaceManifest(ws, nowMs);
  const listed = await ws.index.list({ status: 'active' }, nowMs, ws.halfLifeDays);
  return { manifest, lessons: listed.map((item) => item.lesson) };
}

/** Replays sessions against a manifest and lessons (no workspace: the eval and the bench call this). */
export function replayWithManifest(
  source: ReplaySource,
  manifest: Manifest,
  lessons: readonly Lesson[],
  run: ReplayOptions,
): ReplayRun {
  const readers = manifestReaders(manifest);
  const judged = lessons.map(judgedLesson);
  let existsFrom: ((session: SessionCalls, lesson: string) => number) | undefined;
  if (run.options.asOf) {
    const matchesOf = (session: SessionCalls) => {
      const out = new Map<number, Set<string>>();
      const host = run.hosts[session.agent];
      session.calls.forEach((call, i) => {
        const raw = callPayloads(call, 'main')[0];
        const parsed = raw === undefined ? undefined : parseHookPayload(host.normalizeInput(raw));
        if (parsed === undefined) return;
        // the trigger as a whole: a lesson that waits for its error is born at the failure that printed it
        const event = call.output === undefined ? parsed : { ...parsed, output: call.output };
        const root = sessionCwd(session.project);
        out.set(
          i,
          triggerMatches(
            event,
            manifest.head,
            readers.readLesson,
            readers.literals,
            pathsInside(event.paths ?? [], root),
          ).matched,
        );
      });
      return out;
    };
    const births = lessonBirths(
      lessons.map((lesson) => ({
        id: lesson.id,
        createdAt: lesson.createdAt,
        sourceSessions: lesson.sourceSessions,
        mistakeClass: mistakeClass(lesson),
      })),
      source.sessions,
      matchesOf,
    );
    existsFrom = memoExistence(births);
  }
  const sessions: SessionReplay[] = [];
  source.sessions.forEach((session, i) => {
    run.onProgress?.(i, source.sessions.length);
    sessions.push(
      replaySession(session, {
        manifest,
        ...readers,
        hosts: run.hosts,
        ...(existsFrom === undefined ? {} : { existsFrom }),
      }),
    );
  });
  run.onProgress?.(source.sessions.length, source.sessions.length);
  const wanted = run.options.lessons;
  const report = summarizeReplay({
    at: new Date(run.nowMs).toISOString(),
    options: run.options,
    sessions,
    lessons: wanted.length === 0 ? judged : judged.filter((lesson) => wanted.includes(lesson.id)),
    files: source.files,
    brokenLines: source.brokenLines,
    calls: source.counts,
    ...(existsFrom === undefined ? {} : { existsFrom }),
  });
  return { report, sessions, ...(existsFrom === undefined ? {} : { existsFrom }) };
}

/** `existsFromIndex` memoized per session and lesson (the manifest reader asks on every read). */
function memoExistence(
  births: ReadonlyMap<string, Birth>,
): (session: SessionCalls, lesson: string) => number {
  const memo = new WeakMap<SessionCalls, { times: (string | undefined)[]; byLesson: Map<string, number> }>();
  return (session, lesson) => {
    let entry = memo.get(session);
    if (entry === undefined) {
      entry = { times: carriedTimes(session.calls), byLesson: new Map() };
      memo.set(session, entry);
    }
    let index = entry.byLesson.get(lesson);
    if (index === undefined) {
      index = existsFromIndex(session, births.get(lesson), entry.times);
      entry.byLesson.set(lesson, index);
    }
    return index;
  };
}

export async function replayWorkspace(
  ws: Workspace,
  source: ReplaySource,
  run: ReplayOptions,
): Promise<ReplayRun> {
  const { manifest, lessons } = await replayLessons(ws, run.nowMs);
  return replayWithManifest(source, manifest, lessons, run);
}
