import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CONFIG_FINGERPRINT } from '../../src/core/lesson/constants.js';
import { defaultConfig } from '../../src/core/lesson/schema.js';

describe('CONFIG_FINGERPRINT', () => {
  it('is the fingerprint of the current config shape and defaults (update the constant when this fails)', () => {
    const current = createHash('sha1').update(JSON.stringify(defaultConfig())).digest('hex').slice(0, 12);
    expect(CONFIG_FINGERPRINT).toBe(current);
  });
});
