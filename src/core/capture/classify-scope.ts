/**
 * Where a captured lesson belongs (its scope class), decided from what it talks about:
 * - this repository's files, schemas, config or scripts: `project`;
 * - a library, framework or third-party tool: `user` (it follows the person across repositories);
 * - a process or method (how to work, not what to run): `universal`;
 * - nothing telling: `project` (the narrowest reach; promote it later).
 * Project signals win over everything: a lesson about a library's use in one file still belongs
 * to that repository. Then the advice decides (the remediation, or the summary when there is
 * none): advice about how to work that names no library is `universal` even when the mistake
 * happened in a tool (a user correcting how the agent commits); otherwise a library or tool named
 * anywhere makes it `user`; process words anywhere make it `universal`. Pure.
 */
import type { Category, ScopeClass } from '../lesson/constants.js';

export type ScopeInput = {
  summary: string;
  mistake?: string | undefined;
  remediation?: string | undefined;
  /** The shell command the lesson is about, when there is one. */
  command?: string | undefined;
  /** Path globs (repo-relative, or `**\/*.ext` for files outside the project). */
  paths: readonly string[];
  tags: readonly string[];
  category?: Category | undefined;
};

export type ScopeDecision = { scope: ScopeClass; reason: string };

/** Libraries, frameworks and third-party tools whose lessons hold in any repository using them. */
const LIBRARIES: ReadonlySet<string> = new Set(
  (
    'pytest unittest tox nox pip pip3 pipx uv poetry conda virtualenv venv mypy ruff black flake8 pylint ' +
    'django flask fastapi sqlalchemy alembic pydantic celery pandas numpy scipy matplotlib requests httpx ' +
    'jupyter torch tensorflow npm npx pnpm yarn bun node deno tsc typescript eslint prettier jest vitest ' +
    'mocha playwright cypress puppeteer webpack vite esbuild rollup babel react vue svelte angular next ' +
    'nextjs nuxt express nestjs prisma sequelize mongoose graphql apollo tailwind cargo rustc rustup clippy ' +
    'tokio serde go gofmt golangci-lint gradle maven mvn dotnet nuget bundle bundler gem rails rspec ' +
    'rubocop composer phpunit laravel mix elixir swift xcodebuild cocoapods docker docker-compose podman ' +
    'kubectl helm terraform ansible aws gcloud az gh git git-lfs curl wget jq sed awk grep rg find tar ' +
    'ssh rsync psql mysql sqlite3 redis-cli mongosh ffmpeg openssl brew apt apt-get systemctl nginx ' +
    'python python3 ruby perl php java javac kotlin scala'
  ).split(' '),
);

/** Agent tools are the agent's own, not a library: a lesson about them is about how to work. */
const AGENT_TOOLS: ReadonlySet<string> = new Set(
  'bash edit multiedit write read notebookedit glob grep agent task webfetch websearch todowrite apply_patch shell exec_command'.split(
    ' ',
  ),
);

/** `npm run build`, `make test`, `./scripts/x.sh`, `python tools/gen.py`: the repository's own scripts. */
const PROJECT_SCRIPT =
  /^(?:(?:npm|pnpm|bun)\s+run(?:-script)?\s|yarn\s+run\s|make\b|just\s|task\s|\.{1,2}\/|(?:bin|scripts?|tools|hack)\/|(?:python3?|node|bash|sh|ruby|perl|php|tsx|ts-node|deno\s+run|bun)\s+(?:\.\/)?[\w-]+\/[\w./-]+)/;

/** A config or schema file a repository owns (by name or extension). */
const PROJECT_FILE =
  /(?:^|[\s`'"(])(?:package\.json|tsconfig[\w.-]*\.json|pyproject\.toml|setup\.cfg|cargo\.toml|go\.mod|gemfile|makefile|dockerfile|docker-compose[\w.-]*\.ya?ml|compose\.ya?ml|\.env(?:\.\w+)?|[\w-]+\.config\.[cm]?[jt]s|\.[\w-]+rc(?:\.\w+)?|[\w./-]+\.(?:ya?ml|toml|ini|cfg|conf|sql|prisma|proto|graphql|lock))(?=$|[\s`'"),:;])/i;

/** A repository-relative path with a directory part (`src/api/handlers.py`, `./scripts/x.sh`). */
const RELATIVE_PATH = /(?:^|[\s`'"(])(?:\.\/)?[\w-]+(?:\/[\w.-]+)+\.\w{1,8}(?=$|[\s`'"),:;])/g;

/** Paths inside installed dependencies belong to a library, not to the repository. */
const DEPENDENCY_PATH = /(?:^|\/)(?:node_modules|site-packages|dist-packages|vendor|\.venv|venv)\//;

const PROJECT_WORDS =
  /\b(?:schemas?|migrations?|fixtures?|env(?:ironment)? var(?:iable)?s?|monorepo|this (?:repo|repository|project|codebase|service|app)|our (?:code|codebase|repo|repository|project|api|service|app|schema|config|ci|pipeline|build)|the (?:repo|repository|codebase)(?:'s)?)\b/i;

const PROCESS_WORDS =
  /\b(?:always|never|before (?:committing|pushing|merging|editing|deploying|changing|starting|answering|deleting)|ask (?:the user|me|first|before)|confirm (?:with|before)|double[- ]check|tests? first|write (?:a |the )?tests?|run (?:the |all )?tests|small(?:er)? (?:commits|changes|steps|prs?)|step by step|plan (?:first|before)|read (?:the )?(?:file|docs|documentation|code|error)s? (?:first|before)|review|verify|don'?t guess|explain (?:why|first)|commit messages?)\b/i;

/** Library names that are also everyday English: they count as a command or tag, not in prose. */
const AMBIGUOUS: ReadonlySet<string> = new Set(
  'go next mix black bundle find task swift node make apt brew gem az requests express angular mocha vite'.split(
    ' ',
  ),
);

const WORD = /[a-z][\w+-]*(?:\.[\w+-]+)*/g;

function textOf(input: ScopeInput): string {
  return [input.summary, input.mistake ?? '', input.remediation ?? ''].join('\n');
}

function executable(command: string | undefined): string | undefined {
  if (command === undefined) return undefined;
  const words = command.trim().split(/\s+/);
  // Skip `VAR=value` assignments and wrappers before the program.
  const program = words.find(
    (word) => !/^[A-Z_][A-Z0-9_]*=/.test(word) && !/^(?:sudo|env|time|nice)$/.test(word),
  );
  return program?.replace(/^.*\//, '').toLowerCase();
}

function projectSignal(input: ScopeInput, text: string): string | undefined {
  const file = input.paths.find((glob) => !glob.startsWith('**/'));
  if (file !== undefined) return `it names a file of this repository (${file})`;
  const command = input.command?.trim();
  if (command !== undefined && PROJECT_SCRIPT.test(command))
    return `it runs a script of this repository (${command.split(/\s+/).slice(0, 3).join(' ')})`;
  const config = PROJECT_FILE.exec(text)?.[0]
    ?.trim()
    .replace(/^[`'"(]/, '');
  if (config !== undefined) return `it is about a config or schema file (${config})`;
  const path = [...text.matchAll(RELATIVE_PATH)]
    .map((match) => match[0].trim().replace(/^[`'"(]/, ''))
    .find((found) => !DEPENDENCY_PATH.test(found));
  if (path !== undefined) return `it names a path in the repository (${path})`;
  const words = PROJECT_WORDS.exec(text)?.[0];
  if (words !== undefined) return `it is about this repository ("${words}")`;
  return undefined;
}

function namedLibrary(text: string): string | undefined {
  return (text.toLowerCase().match(WORD) ?? []).find(
    (word) => LIBRARIES.has(word) && !AMBIGUOUS.has(word) && !AGENT_TOOLS.has(word),
  );
}

function librarySignal(input: ScopeInput, text: string): string | undefined {
  const exe = executable(input.command);
  if (exe !== undefined && LIBRARIES.has(exe)) return `it is about a tool or library (${exe})`;
  for (const tag of input.tags) {
    const [kind, value] = tag.toLowerCase().split(':');
    if ((kind === 'tool' || kind === 'lib' || kind === 'framework') && value !== undefined) {
      if (LIBRARIES.has(value) || (kind !== 'tool' && value !== ''))
        return `it is about ${value} (tag ${tag})`;
    }
  }
  const lowered = text.toLowerCase();
  const named = (lowered.match(WORD) ?? []).find(
    (word) => LIBRARIES.has(word) && !AMBIGUOUS.has(word) && !AGENT_TOOLS.has(word),
  );
  if (named !== undefined) return `it is about a tool or library (${named})`;
  if (/\b(?:no module named|cannot find module|module ?not ?found|importerror)\b/i.test(text))
    return 'it is about a dependency';
  const language = input.paths.find((glob) => glob.startsWith('**/'));
  if (language !== undefined) return `it applies to every ${language.replace('**/*', '*')} file`;
  return undefined;
}

export function classifyScope(input: ScopeInput): ScopeDecision {
  const text = textOf(input);
  const project = projectSignal(input, text);
  if (project !== undefined) return { scope: 'project', reason: project };
  const advice = input.remediation ?? input.summary;
  const method = PROCESS_WORDS.exec(advice)?.[0];
  if (method !== undefined && namedLibrary(advice) === undefined)
    return { scope: 'universal', reason: `its advice is about how to work ("${method}")` };
  const library = librarySignal(input, text);
  if (library !== undefined) return { scope: 'user', reason: library };
  const anywhere = PROCESS_WORDS.exec(text)?.[0];
  if (anywhere !== undefined)
    return { scope: 'universal', reason: `it is about how to work ("${anywhere}")` };
  if (input.category === 'process') return { scope: 'universal', reason: 'it is a process lesson' };
  return { scope: 'project', reason: 'nothing says it holds beyond this repository' };
}
