/**
 * The text of the MCP prompt `review-lessons-for-path`: the lessons that apply to a path (at most
 * 20, in rank order, each with why it matched) and what to do with each.
 */

export type ReviewItem = { id: string; summary: string; matchedBy: readonly string[] };

const LIMIT = 20;

export function renderPathReview(path: string, items: readonly ReviewItem[]): string {
  if (items.length === 0) return `No lesson applies to ${path} yet.`;
  return [
    `These lessons apply to ${path}. Review each before you change the file: does it still hold? Is it clear?`,
    'Use lore_feedback for each one you judge (helpful or not), lore_update to fix one, lore_supersede to replace one.',
    '',
    ...items.slice(0, LIMIT).map((item) => `- ${item.id} (${item.matchedBy.join(', ')}): ${item.summary}`),
  ].join('\n');
}
