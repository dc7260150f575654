/**
 * Which stacks a repository uses, from the files at its root (names, and the text of a few
 * manifests). Computed when the manifest is built, never per hook call. Lessons with a `stack`
 * are gated by it, and `lang:` tags that match it rank higher.
 */

/** Stacks lore can detect; a lesson's stack entry outside this list never gates it. */
export const KNOWN_STACKS = [
  'python',
  'django',
  'flask',
  'fastapi',
  'node',
  'javascript',
  'typescript',
  'react',
  'vue',
  'next',
  'go',
  'rust',
  'ruby',
  'rails',
  'java',
  'kotlin',
  'php',
  'dotnet',
  'csharp',
  'elixir',
  'swift',
  'docker',
  'terraform',
] as const;

const BY_FILE: [RegExp, string[]][] = [
  [/^(pyproject\.toml|requirements.*\.txt|setup\.py|setup\.cfg|Pipfile|poetry\.lock|uv\.lock)$/, ['python']],
  [/^manage\.py$/, ['python', 'django']],
  [/^package\.json$/, ['node', 'javascript']],
  [/^(tsconfig.*\.json|deno\.json)$/, ['typescript']],
  [/^go\.mod$/, ['go']],
  [/^Cargo\.toml$/, ['rust']],
  [/^(Gemfile|.*\.gemspec)$/, ['ruby']],
  [/^(pom\.xml|build\.gradle|settings\.gradle)$/, ['java']],
  [/^(build\.gradle\.kts|settings\.gradle\.kts)$/, ['kotlin', 'java']],
  [/^composer\.json$/, ['php']],
  [/\.(csproj|sln|fsproj)$/, ['dotnet', 'csharp']],
  [/^mix\.exs$/, ['elixir']],
  [/^Package\.swift$/, ['swift']],
  [/^(Dockerfile.*|docker-compose.*\.ya?ml|compose\.ya?ml)$/, ['docker']],
  [/\.tf$/, ['terraform']],
];

/** Dependency names that name a stack. */
const BY_DEPENDENCY: Record<string, string> = {
  typescript: 'typescript',
  react: 'react',
  vue: 'vue',
  next: 'next',
  django: 'django',
  flask: 'flask',
  fastapi: 'fastapi',
  rails: 'rails',
};

/** File extension -> language, for `lang:` tags matched against paths. */
export const LANGUAGE_EXTENSIONS: Record<string, string[]> = {
  python: ['.py'],
  typescript: ['.ts', '.tsx', '.mts', '.cts'],
  javascript: ['.js', '.jsx', '.mjs', '.cjs'],
  go: ['.go'],
  rust: ['.rs'],
  ruby: ['.rb'],
  java: ['.java'],
  kotlin: ['.kt', '.kts'],
  php: ['.php'],
  csharp: ['.cs'],
  elixir: ['.ex', '.exs'],
  swift: ['.swift'],
  terraform: ['.tf'],
  shell: ['.sh'],
  bash: ['.sh'],
  // every language capture tags a lesson with (draft-tags.ts) fires on its files
  powershell: ['.ps1', '.psm1'],
  c: ['.c', '.h'],
  cpp: ['.cpp', '.cc', '.cxx', '.hpp'],
  markdown: ['.md', '.mdx'],
  css: ['.css'],
  html: ['.html', '.htm'],
  json: ['.json'],
  yaml: ['.yaml', '.yml'],
  toml: ['.toml'],
};

function dependencyNames(name: string, text: string): string[] {
  if (name === 'package.json') {
    try {
      const pkg = JSON.parse(text) as Record<string, unknown>;
      return ['dependencies', 'devDependencies', 'peerDependencies'].flatMap((key) => {
        const deps = pkg[key];
        return deps !== null && typeof deps === 'object' ? Object.keys(deps) : [];
      });
    } catch {
      return [];
    }
  }
  // requirements.txt, pyproject.toml, Gemfile: names at the start of a line or in quotes.
  return [...text.matchAll(/(?:^|["'\s])([A-Za-z][\w.-]*)/gm)].map((m) => (m[1] ?? '').toLowerCase());
}

/**
 * `files`: the names at the repository root, with the text of manifests whose dependencies
 * matter (package.json, requirements*.txt, pyproject.toml, Gemfile) when readable.
 */
export function detectStack(files: ReadonlyMap<string, string | undefined>): string[] {
  const found = new Set<string>();
  for (const [name, text] of files) {
    for (const [pattern, stacks] of BY_FILE) if (pattern.test(name)) for (const s of stacks) found.add(s);
    if (text !== undefined) {
      for (const dep of dependencyNames(name, text)) {
        const stack = BY_DEPENDENCY[dep.toLowerCase()];
        if (stack !== undefined) found.add(stack);
      }
    }
  }
  return [...found].sort();
}

/** Whether a lesson's `stack` lets it apply here. */
export function stackAllows(lessonStack: readonly string[], detected: readonly string[]): boolean {
  if (lessonStack.length === 0 || detected.length === 0) return true;
  const known = KNOWN_STACKS as readonly string[];
  const wanted = lessonStack.map((s) => s.toLowerCase());
  if (wanted.some((s) => detected.includes(s))) return true;
  return !wanted.some((s) => known.includes(s));
}
