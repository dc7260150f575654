/**
 * The repository's stack (languages, frameworks) from the manifest files at its top, as the hook
 * sees it. Its own module: `lore list --stack` and `lore relevant` read it without loading the
 * manifest builder (YAML, zod, the docs walker).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { detectStack } from '../../core/inject/detect-stack.js';

const STACK_TEXT_FILES = /^(package\.json|requirements.*\.txt|pyproject\.toml|Gemfile|Pipfile)$/;

/** The stack of the repository at `root`, from the files at its top. */
export function readStack(root: string | null): string[] {
  if (root === null) return [];
  const files = new Map<string, string | undefined>();
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  for (const name of names.slice(0, 2000)) {
    let text: string | undefined;
    if (STACK_TEXT_FILES.test(name)) {
      try {
        const path = join(root, name);
        if ((statSync(path).size ?? 0) < 512 * 1024) text = readFileSync(path, 'utf8');
      } catch {
        text = undefined;
      }
    }
    files.set(name, text);
  }
  return detectStack(files);
}
