/**
 * lore's structured parts (mistake, remediation, COIA) as labelled paragraphs after the body, for
 * formats whose only text is Markdown (Orbit's body, Cursor rules): `**Mistake:** ...`. Reading
 * them back finds the labelled tail again, so a round trip keeps the fields apart.
 */
import type { Lesson } from '../lesson/schema.js';

export const SECTIONS = [
  ['mistake', 'Mistake'],
  ['remediation', 'Remediation'],
  ['context', 'Context'],
  ['observation', 'Observation'],
  ['implication', 'Implication'],
  ['action', 'Action'],
] as const;

export type SectionKey = (typeof SECTIONS)[number][0];
export type Sections = Partial<Record<SectionKey, string>>;

export function foldSections(body: string | undefined, lesson: Pick<Lesson, SectionKey>): string {
  const parts: string[] = [];
  if (body !== undefined && body.trim() !== '') parts.push(body.trimEnd());
  for (const [key, label] of SECTIONS) {
    const value = lesson[key];
    if (value !== undefined) parts.push(`**${label}:** ${value.trim()}`);
  }
  return parts.join('\n\n');
}

const LABEL_LINE = /^\*\*(Mistake|Remediation|Context|Observation|Implication|Action):\*\*[ \t]?(.*)$/;

/** Splits Markdown into its body and the labelled sections at its end (in the order above). */
export function unfoldSections(text: string): { body: string | undefined; sections: Sections } {
  const lines = text.split('\n');
  const labels: string[] = SECTIONS.map(([, label]) => label);
  for (let start = 0; start < lines.length; start += 1) {
    const first = LABEL_LINE.exec(lines[start] ?? '');
    if (!first || (start > 0 && (lines[start - 1] ?? '').trim() !== '')) continue;
    const sections: Sections = {};
    let order = -1;
    let current: { key: SectionKey; lines: string[] } | undefined;
    let ok = true;
    const flush = () => {
      if (current) sections[current.key] = current.lines.join('\n').trim();
    };
    for (let i = start; i < lines.length; i += 1) {
      const line = lines[i] ?? '';
      const match = LABEL_LINE.exec(line);
      const previousBlank = i === start || (lines[i - 1] ?? '').trim() === '';
      if (match && previousBlank) {
        const index = labels.indexOf(match[1] ?? '');
        if (index <= order) {
          ok = false;
          break;
        }
        flush();
        order = index;
        current = { key: (SECTIONS[index] ?? SECTIONS[0])[0], lines: [match[2] ?? ''] };
      } else current?.lines.push(line);
    }
    if (!ok) continue;
    flush();
    if (Object.values(sections).some((value) => value === '')) continue;
    const body = lines.slice(0, start).join('\n').trim();
    return { body: body === '' ? undefined : body, sections };
  }
  const body = text.trim();
  return { body: body === '' ? undefined : body, sections: {} };
}
