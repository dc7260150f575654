/** The CLI's wording of the store's field errors: fields become the flags that set them. */
import { describe, expect, it } from 'vitest';
import { LoreError } from '../../src/core/errors.js';
import { fieldToFlag, inFlagTerms } from '../../src/cli/lesson-flags.js';
import { FieldError, fieldName } from '../../src/store/lessons/lesson-writes.js';

describe('fields and flags', () => {
  it.each([
    ['summary', 'summary', '--summary'],
    ['paths.0', 'paths[0]', '--path #1'],
    ['commands.2', 'commands[2]', '--command #3'],
    ['evidence.0.ref', 'evidence[0].ref', '--evidence #1'],
    ['needsReview', 'needsReview', '--needs-review'],
    ['unset', 'unset', '--unset'],
  ])('%s is %s in the store and %s on the command line', (field, name, flag) => {
    expect(fieldName(field)).toBe(name);
    expect(fieldToFlag(field)).toBe(flag);
  });

  it('rewords a field error with the flags, keeping its code and details', () => {
    const error = new FieldError(
      'invalid',
      (name) => ({ message: `invalid lesson: ${name('paths.0')}: bad`, hint: `see ${name('body')}` }),
      ['detail'],
    );
    expect([error.message, error.hint]).toEqual(['invalid lesson: paths[0]: bad', 'see body']);
    const worded = inFlagTerms(error) as LoreError;
    expect([worded.code, worded.message, worded.hint, worded.details]).toEqual([
      'invalid',
      'invalid lesson: --path #1: bad',
      'see --body',
      ['detail'],
    ]);
  });

  it('leaves every other error as it is', () => {
    const other = new LoreError('not-found', 'no lesson matches "x"');
    expect(inFlagTerms(other)).toBe(other);
  });
});
