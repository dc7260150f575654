/**
 * The rules of the lesson fields that both the record (schema.ts, with its defaults) and the draft
 * (draft-schema.ts, all optional) take as they are: the ranges, with their messages, and the
 * evidence entries (the choices are the lists in constants.ts). A module of their own so neither of the two has to load the other.
 * Each is built on first use (`PrioritySchema()`): `lore mcp` loads this module at every start and
 * needs none of them for its first answer.
 */
import { z } from 'zod';
import { once } from '../once.js';
import { EVIDENCE_KINDS } from './constants.js';

export const PrioritySchema = once(() =>
  z.number().int('must be a whole number').min(1, 'must be from 1 to 10').max(10, 'must be from 1 to 10'),
);
export const ConfidenceSchema = once(() =>
  z.number().min(0, 'must be from 0 to 1').max(1, 'must be from 0 to 1'),
);

export const EvidenceSchema = once(() =>
  z.object({
    kind: z.enum(EVIDENCE_KINDS).describe('What the reference points at.'),
    ref: z.string().min(1, 'must not be empty').describe('A task id, commit hash, session id, path or URL.'),
    note: z.string().optional(),
  }),
);
export type Evidence = z.infer<ReturnType<typeof EvidenceSchema>>;
