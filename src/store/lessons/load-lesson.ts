/**
 * The one lesson loader: a lesson file's text, where it lives (its tier and its directory's
 * name) in, a valid lesson or its problems out. The index, the manifest patch, the background
 * manifest rebuilder and the parse workers all load lessons here, so a file is a lesson to all of
 * them or to none. The rules, on top of the schema (`parseLessonYaml`):
 * - the id is the directory's name, or the file is no lesson (an error: rename one of them);
 * - the tier is where the file lives, whatever its `tier:` says (a warning when it says another);
 * - `universal` applies to user-tier lessons only (a warning on a project-tier lesson).
 *
 * The caller hands in the parser (`parseLessonYaml`): it loads YAML and zod, so each caller loads
 * it only once a file must be parsed (the index's fresh read path never does).
 */
import type { Problem } from '../../core/errors.js';
import type { ParsedLesson } from '../../core/lesson/lesson-yaml.js';
import type { Tier } from '../../core/lesson/schema.js';

export type LessonFile = {
  text: string;
  /** The file as problems name it (repo-relative, `~/...`). */
  file: string;
  /** The tier it lives in. */
  tier: Tier;
  /** The name of its directory (`lessons/<id>/lesson.yaml`). */
  id: string;
};

/** `warnings`: problems that do not keep the lesson out (unknown fields, a `tier:` the location overrides). */
export type LoadedLesson = ParsedLesson;

/** `parseLessonYaml`, or anything that parses as it does. */
export type ParseLesson = (text: string, file: string) => ParsedLesson;

export function loadLesson({ text, file, tier, id }: LessonFile, parse: ParseLesson): LoadedLesson {
  const parsed = parse(text, file);
  if (!parsed.ok) return parsed;
  const warnings: Problem[] = [...parsed.warnings];
  if (parsed.lesson.id !== id) {
    const mismatch: Problem = {
      file,
      line: 1,
      field: 'id',
      message: `id "${parsed.lesson.id}" does not match its directory name "${id}"; rename one so they agree`,
      severity: 'error',
    };
    return { ok: false, problems: [...warnings, mismatch] };
  }
  // `tier` has a default: only a file that says another tier is told the location wins.
  if (parsed.lesson.tier !== tier && text.includes('tier:')) {
    warnings.push({
      file,
      field: 'tier',
      message: `tier says "${parsed.lesson.tier}" but the file lives in the ${tier} tier; the location wins`,
      severity: 'warning',
    });
  }
  if (parsed.lesson.universal === true && tier === 'project') {
    warnings.push({
      file,
      field: 'universal',
      message: 'universal applies to user-tier lessons only; move it with `lore promote ID --to universal`',
      severity: 'warning',
    });
  }
  return { ok: true, lesson: { ...parsed.lesson, tier }, warnings };
}
