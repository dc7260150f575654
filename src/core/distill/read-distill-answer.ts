/**
 * A model's answer to a distillation prompt, read into a `DistilledLesson` or refused with a note
 * a person can act on. Models wrap JSON in code fences or a sentence despite being told not to;
 * the first `{` to the last `}` is taken, and anything that is not the asked-for shape is refused
 * (the lesson schema itself is checked when the result is applied).
 */
import { z } from 'zod';

const list = z.array(z.string()).default([]);

const AnswerSchema = z.object({
  summary: z.string(),
  context: z.string(),
  observation: z.string(),
  implication: z.string(),
  action: z.string(),
  trigger: z
    .object({ commands: list, paths: list, tools: list })
    .default({ commands: [], paths: [], tools: [] }),
  tags: list,
});

export type DistilledLesson = z.infer<typeof AnswerSchema>;

export type ReadAnswer = { ok: true; value: DistilledLesson } | { ok: false; note: string };

const clip = (text: string, max = 80): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
};

export function readDistillAnswer(text: string): ReadAnswer {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) {
    return {
      ok: false,
      note: `the model's answer is not a JSON object: "${clip(text) || '(empty)'}"`,
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.slice(start, end + 1));
  } catch (error) {
    return { ok: false, note: `the model's answer is not valid JSON (${clip((error as Error).message)})` };
  }
  const checked = AnswerSchema.safeParse(parsed);
  if (!checked.success) {
    const issues = checked.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`);
    return { ok: false, note: `the model's answer lacks the asked-for fields (${issues.join('; ')})` };
  }
  return { ok: true, value: checked.data };
}
