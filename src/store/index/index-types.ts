/** What the lesson index answers, shared by its modules and re-exported by lesson-index.ts. */
import type { Lesson } from '../../core/lesson/schema.js';

export type FieldWeights = { summary: number; tags: number; scope: number; structured: number; body: number };

export type IndexedLesson = {
  lesson: Lesson;
  file: string;
  votes: { count: number; lastVotedAt: string | null; times: string[] };
};

export type ListedLesson = IndexedLesson & { voteScore: number; matchedBy: string[] };
export type SearchResult = ListedLesson & { relevance: number };

export type RefreshReport = {
  parsed: number;
  removed: number;
  rebuilt: boolean;
  fresh: boolean;
  /** Lesson files of the old flat layout (`lessons/<id>.yaml`), which lore refuses to read. */
  legacyFiles: string[];
  /** `lite`: only the votes files known to exist were stat-ed (see `freshnessContext`). */
  scan?: 'full' | 'lite';
};
