/**
 * The short text that points the agent at an aggregated tool skill instead of injecting that
 * tool's lessons one by one: which skill, where, and the lesson this call matched.
 */
import type { ManifestSkill } from './types.js';

export function renderSkillPointer(name: string, skill: ManifestSkill): string {
  return `[lore skill ${name}] This project's ${skill.lessons} lessons about ${skill.tool}, each with its fix, are in the skill ${name} (${skill.path}): load it before you use ${skill.tool}.`;
}

/** The pointer with the lesson that matched (`summary`), and the pointer alone as its short form. */
export function skillPointerTexts(
  name: string,
  skill: ManifestSkill,
  summary: string | undefined,
): { text: string; summary: string } {
  const pointer = renderSkillPointer(name, skill);
  return { text: summary === undefined ? pointer : `${pointer}\nMatched here: ${summary}`, summary: pointer };
}
