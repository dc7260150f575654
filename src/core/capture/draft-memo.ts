/**
 * Drafting an episode once per content, not once per copy. A resumed Claude Code session (and a
 * transcript copied or re-exported) holds the history it continues: the same failures, the same
 * fixes, in a new file with a new session id. Their episodes differ only in where they were read
 * (session, file, line), and a draft depends on that only in its `session`, `evidence`, `anchor`
 * and `joined.anchors`, which a copy's own values replace. Redacting and drafting an episode costs
 * about 0.3 ms (most of it regular expressions over the failure's output); a first scan of a long
 * history meets most episodes more than once.
 *
 * The key is the episode with every place-of-reading field left out (its `session` and
 * `evidence`, and each event's `session`, `file` and `line`), so two episodes share a key only
 * when everything else a draft reads is equal. An event-bearing field this does not know of keeps
 * its place in the key: fewer hits, never a wrong draft. Pure (each caller gets its own copy).
 */
import { anchorOf } from './draft-candidate.js';
import type { CandidateDraft } from './draft-candidate.js';
import type { Attempt, Episode, EvidenceRef } from './episode.js';
import type { EventOrigin } from './events.js';

/** Drafts kept (a few MB at most); beyond, the oldest go first. */
const MAX_KEPT = 1024;

type Placed = Pick<Episode, 'session' | 'evidence'> & { blockRef?: EvidenceRef; found?: EvidenceRef };

/** An event without where it was read. */
function unplaced<T extends EventOrigin>(
  event: T | undefined,
): Omit<T, 'session' | 'file' | 'line'> | undefined {
  if (event === undefined) return undefined;
  const { session: _session, file: _file, line: _line, ...rest } = event;
  return rest;
}

function contentOf(episode: Episode): unknown {
  const { session: _session, evidence: _evidence, joined, failures, fix, enabler, ...rest } = episode;
  return {
    ...rest,
    failures: failures.map((attempt: Attempt) => ({
      call: unplaced(attempt.call),
      result: unplaced(attempt.result),
    })),
    fix: unplaced(fix),
    enabler: unplaced(enabler),
    joined: joined === undefined ? undefined : contentOf(joined.heuristic),
  };
}

/** What `draftCandidate` would key a copy by: equal keys, equal drafts but for the places. */
export function draftKey(episode: Episode): string {
  return JSON.stringify(contentOf(episode));
}

/**
 * `draft(redact(episode))`, from a kept draft when an episode of the same content was drafted
 * before; `redact` must treat each string alone (as `redactDeep` does), so that the places can be
 * redacted apart from the rest.
 */
export function createDraftMemo(
  draft: (episode: Episode) => CandidateDraft,
  redact: <T>(value: T) => T,
): { draft(episode: Episode): CandidateDraft; hits(): number } {
  const kept = new Map<string, CandidateDraft>();
  let hits = 0;
  return {
    draft(episode) {
      const key = draftKey(episode);
      const known = kept.get(key);
      if (known === undefined) {
        const made = draft(redact(episode));
        // copies, both ways: what a caller does to its draft never reaches another's
        kept.set(key, structuredClone(made));
        if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value as string);
        return made;
      }
      hits += 1;
      const placed: Placed = redact({
        session: episode.session,
        evidence: episode.evidence,
        ...(episode.joined
          ? { blockRef: episode.joined.blockRef, found: episode.joined.heuristic.evidence[0] }
          : {}),
      });
      return {
        ...structuredClone(known),
        session: placed.session,
        evidence: placed.evidence,
        anchor: anchorOf(placed.evidence[0]),
        ...(known.joined
          ? {
              joined: {
                hashes: known.joined.hashes,
                anchors: [anchorOf(placed.found), anchorOf(placed.blockRef)],
              },
            }
          : {}),
      };
    },
    hits: () => hits,
  };
}
