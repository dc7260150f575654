// The redaction rules skip a pattern when its text lacks what the pattern needs (an `@`, `://`, a
// key word): the prefiltered result must equal running every pattern, whatever the text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyRules, redactText } from '../../src/core/capture/redact.js';

const FRAGMENTS = [
  'sk-ant-abcdefghijklmnopqrstuv',
  'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  'AKIAABCDEFGHIJKLMNOP',
  'eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.SflKxwRJSMeKKF2QT4',
  'https://user:hunter22@example.com/x',
  'Authorization: Bearer abcdefghijklmnop',
  'Basic dXNlcjpwYXNzd29yZA==',
  'Token abcdefghijkl1234',
  'cookie=abcdefg123',
  'X-Api-Key: 1234567890ab',
  'DB_PASSWORD=correcthorse',
  'api_key: "abcd1234"',
  'session_id abcdef123456',
  'client_secret=xyz123456',
  '--password hunter2',
  '--token=abc',
  'jane.doe@example.org',
  'git@github.com:a/b',
  '/home/alice/project',
  '/Users/bob/x',
  'C:\\Users\\carol\\y',
  'C:\\\\Users\\\\dave\\\\z',
  '-home-erin-work',
  'C--Users-frank-x',
  '-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----',
  'mallory',
  'plain words',
  ' ',
  '\n',
  '=',
  ':',
  '"',
];

describe('redaction prefilter', () => {
  it('redacts exactly as running every pattern', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 12 })), { maxLength: 12 }),
        (parts) => {
          const text = parts.join('');
          const options = { names: ['mallory'] };
          expect(applyRules(text, options, true)).toBe(applyRules(text, options, false));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('still redacts each kind', () => {
    const out = redactText(FRAGMENTS.slice(0, 25).join(' '), { names: ['mallory'] });
    for (const secret of ['hunter22', 'correcthorse', 'jane.doe', 'alice', 'carol', 'erin', 'MIIB'])
      expect(out).not.toContain(secret);
  });
});
