/** The recorded hook payloads in test/fixtures/hook-payloads, as stdin objects. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../fixtures/hook-payloads/', import.meta.url));

export type Payload = Record<string, unknown> & { hook_event_name: string };

function load(file: string): Payload[] {
  return readFileSync(`${dir}${file}`, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .map((record) => (record.stdin ?? record) as Payload);
}

export const claudePayloads = [
  ...load('cc-hooks-run1.jsonl'),
  ...load('cc-hooks-deny.jsonl'),
  ...load('cc-post.jsonl'),
];
export const codexPayloads = load('codex-hooks.jsonl');
export const geminiPayloads = load('gemini-hooks.jsonl');
/** Transcribed from Cursor's documentation, not recorded (see SOURCES.md). */
export const cursorPayloads = load('cursor-documented.jsonl');

const RECORDED = {
  claude: claudePayloads,
  codex: codexPayloads,
  gemini: geminiPayloads,
  cursor: cursorPayloads,
};

/** The first payload of `event` (and tool) from a host's recording. */
export function payload(host: keyof typeof RECORDED, event: string, tool?: string): Payload {
  const found = RECORDED[host].find(
    (p) => p.hook_event_name === event && (tool === undefined || p.tool_name === tool),
  );
  if (!found) throw new Error(`no recorded ${host} ${event} payload`);
  return structuredClone(found);
}
