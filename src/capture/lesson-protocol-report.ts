/**
 * `lore protocol`: reads every transcript under the roots whole (a report, not the incremental
 * scan: nothing is stored) and counts each session's `#lesson` blocks, well formed and malformed.
 */
import { readFileSync } from 'node:fs';
import { auditLessonBlocks, summarizeProtocol } from '../core/capture/lesson-protocol.js';
import type { ProtocolReport, SessionProtocol } from '../core/capture/lesson-protocol.js';
import type { Agent, TranscriptEvent } from '../core/capture/events.js';
import { readLinesFrom, readZstdLinesFrom } from './read-lines.js';
import { READERS, detectAgentOrSkip } from './readers.js';
import { walk } from './walk-files.js';
import type { ScanRoot } from './scan-transcripts.js';

function fileEvents(path: string, agent: Agent): TranscriptEvent[] {
  const reader = READERS[agent];
  const context = {
    file: path,
    sidechain: reader.isSidechain(path),
    project: reader.projectOf(path),
    carry: {},
  };
  if (reader.isDocument(path) && reader.parseDocument)
    return reader.parseDocument(readFileSync(path, 'utf8'), context);
  const parser = reader.createParser(context);
  const events: TranscriptEvent[] = [];
  const read = path.endsWith('.zst') ? readZstdLinesFrom : readLinesFrom;
  read(path, 0, 0, (line, number) => {
    if (!parser.wants(line)) return;
    try {
      events.push(...parser.parse(JSON.parse(line.toString('utf8')), number));
    } catch {
      // a malformed line: the scan reports those; here it holds no block
    }
  });
  events.push(...parser.flush());
  return events;
}

/**
 * A file that cannot be read whole (a Gemini session cut short, unreadable, deleted meanwhile), or a
 * folder that cannot be listed, is passed to `onUnreadable` and left out: one bad file never stops
 * the report.
 */
export function reportLessonProtocol(
  roots: readonly ScanRoot[],
  source: Agent | undefined,
  onUnreadable: (path: string, reason: string) => void = () => {},
): ProtocolReport {
  const sessions = new Map<string, SessionProtocol>();
  const seen = new Set<string>();
  for (const root of roots) {
    for (const path of walk(root.path, (folder) => onUnreadable(folder.path, folder.reason))) {
      if (seen.has(path)) continue;
      seen.add(path);
      const agent = root.agent
        ? READERS[root.agent].isTranscript(path)
          ? root.agent
          : undefined
        : detectAgentOrSkip(path, (file) => onUnreadable(file.path, file.reason));
      if (agent === undefined || (source !== undefined && agent !== source)) continue;
      let events: TranscriptEvent[];
      try {
        events = fileEvents(path, agent);
      } catch (error) {
        onUnreadable(path, error instanceof Error ? error.message : String(error));
        continue;
      }
      for (const event of events) {
        const key = `${agent}\u0000${event.session}`;
        const entry = sessions.get(key) ?? { session: event.session, agent, blocks: 0, malformed: 0 };
        sessions.set(key, entry);
        if (event.kind !== 'assistant-text') continue;
        const audit = auditLessonBlocks(event.text);
        entry.blocks += audit.blocks;
        entry.malformed += audit.malformed.length;
      }
    }
  }
  return summarizeProtocol([...sessions.values()]);
}
