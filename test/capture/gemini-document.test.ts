// A Gemini CLI chat document's events carry the line of their own record: a message the line of
// its id, a tool call the line of the call's id (found in one pass over the text), never an id
// that only appears inside a string.
import { describe, expect, it } from 'vitest';
import { parseGeminiDocument } from '../../src/capture/gemini/parser.js';

const context = { file: 'chat.json', sidechain: false, project: undefined, carry: {} };

describe('parseGeminiDocument', () => {
  it('gives each message and tool call the line of its id', () => {
    const document = {
      sessionId: 's',
      projectHash: 'p',
      messages: [
        // the user quotes a call id in a string before the call exists: not its line
        { id: 'u1', type: 'user', content: 'look at {"id": "call-1"} please' },
        {
          id: 'g1',
          type: 'gemini',
          content: 'running it',
          toolCalls: [
            {
              id: 'call-1',
              name: 'run_shell_command',
              status: 'error',
              args: { command: 'pytest' },
              result: 'boom',
            },
            { id: 'call-2', name: 'read_file', status: 'success', args: { path: 'a.py' }, result: 'ok' },
          ],
        },
      ],
    };
    const text = JSON.stringify(document, null, 2);
    const lines = text.split('\n');
    const lineOfId = (id: string) => lines.findIndex((line) => line.includes(`"id": "${id}"`)) + 1;
    const events = parseGeminiDocument(text, context);
    const where = events.map((event) => [
      event.kind,
      'callId' in event ? event.callId : undefined,
      event.line,
    ]);
    expect(where).toEqual([
      ['user-text', undefined, lineOfId('u1')],
      ['assistant-text', undefined, lineOfId('g1')],
      ['tool-call', 'call-1', lineOfId('call-1')],
      ['tool-result', 'call-1', lineOfId('call-1')],
      ['tool-call', 'call-2', lineOfId('call-2')],
      ['tool-result', 'call-2', lineOfId('call-2')],
    ]);
    expect(lineOfId('call-1')).toBeGreaterThan(lineOfId('g1'));
  });
});
