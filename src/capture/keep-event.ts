/**
 * What of an event the scan state keeps for the next scan of the same file (the newest events,
 * so an episode that spans two scans is still found): text shortened, large tool inputs reduced
 * to their command and path, secrets redacted, and a fresh copy, because a slice of a parsed
 * string would keep the whole (maybe 50 KB) line alive.
 */
import type { TranscriptEvent } from '../core/capture/events.js';
import { redactDeep } from '../core/capture/redact.js';
import type { RedactOptions } from '../core/capture/redact.js';

const TEXT_KEPT = 600;

export function keepEvent(event: TranscriptEvent, redact: RedactOptions): TranscriptEvent {
  const copy = { ...event } as TranscriptEvent & { text?: string; input?: Record<string, unknown> };
  if (typeof copy.text === 'string' && copy.text.length > TEXT_KEPT)
    copy.text = copy.text.slice(0, TEXT_KEPT);
  if (copy.input !== undefined) {
    const text = JSON.stringify(copy.input);
    if (text.length > TEXT_KEPT * 4) {
      const command = copy.input.command ?? copy.input.cmd;
      const path = copy.input.file_path ?? copy.input.path;
      // a Codex patch names its files only in its text: those lines are kept
      const patched =
        typeof copy.input.input === 'string'
          ? (copy.input.input.match(/^\*\*\* (?:Update|Add|Delete) File: .+$/gm) ?? []).slice(0, 8).join('\n')
          : '';
      copy.input = {
        ...(typeof command === 'string' ? { command: command.slice(0, TEXT_KEPT) } : {}),
        ...(typeof path === 'string' ? { file_path: path } : {}),
        ...(patched !== '' ? { input: patched } : {}),
        truncated: true,
      };
    }
  }
  return JSON.parse(JSON.stringify(redactDeep(copy, redact))) as TranscriptEvent;
}
