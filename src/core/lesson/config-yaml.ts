/**
 * config.yaml text -> Config. The user tier's file is read first, the project's over it.
 */
import { LineCounter, parseDocument } from 'yaml';
import type { Problem } from '../errors.js';
import { ConfigSchema, KNOWN_CONFIG_KEYS } from './schema.js';
import type { Config } from './schema.js';
import { yamlValue } from './lesson-yaml.js';
import { firstUnclosedOpener, syntaxErrorLine } from './yaml-error-line.js';

export const CONFIG_SCHEMA_COMMENT = ' yaml-language-server: $schema=./schema/config.schema.json';

export type ConfigLayer = { file: string; text: string };

/**
 * One bad setting must not silently reset a whole project: an invalid value is dropped alone
 * (its problem says what it falls back to) and the file's other settings still apply; a file lore
 * cannot parse at all is ignored, and one problem lists every setting it tried to make.
 */
export function parseConfigYaml(layers: readonly ConfigLayer[]): { config: Config; problems: Problem[] } {
  const problems: Problem[] = [];
  let merged: Record<string, unknown> = {};
  for (const { file, text } of layers) {
    const lineCounter = new LineCounter();
    const doc = parseDocument(text, { lineCounter, uniqueKeys: true });
    if (doc.errors.length > 0) {
      const opener = firstUnclosedOpener(text);
      for (const error of doc.errors) {
        const { line, note } = syntaxErrorLine(error.pos[0], opener, lineCounter);
        problems.push({
          file,
          line,
          message: `invalid YAML: ${error.message.split('\n')[0] ?? ''}${note}; this file is ignored`,
          severity: 'error',
        });
      }
      problems.push(...fellBack(file, attemptedSettings(text), ConfigSchema.parse(merged)));
      continue;
    }
    const built = yamlValue(doc);
    if ('error' in built) {
      problems.push({
        file,
        line: 1,
        message: `invalid YAML: ${built.error}; this file is ignored`,
        severity: 'error',
      });
      problems.push(...fellBack(file, attemptedSettings(text), ConfigSchema.parse(merged)));
      continue;
    }
    const raw = built.value;
    if (raw === null || raw === undefined) continue;
    if (typeof raw !== 'object' || Array.isArray(raw)) {
      problems.push({
        file,
        line: 1,
        message: 'expected a mapping; this file is ignored',
        severity: 'error',
      });
      continue;
    }
    const layer = dropInvalid(raw as Record<string, unknown>, merged, (path, message) => {
      const node = doc.getIn(path, true) as { range?: [number, number, number] } | undefined;
      problems.push({
        file,
        line: node?.range ? lineCounter.linePos(node.range[0]).line : 1,
        field: path.join('.'),
        message,
        severity: 'error',
      });
    });
    for (const key of Object.keys(layer)) {
      if (!KNOWN_CONFIG_KEYS.includes(key)) {
        problems.push({
          file,
          field: key,
          message: `unknown config key "${key}" is ignored`,
          severity: 'warning',
        });
      }
    }
    merged = deepMerge(merged, layer);
  }
  return { config: ConfigSchema.parse(merged), problems };
}

type Report = (path: (string | number)[], message: string) => void;

/** The layer without the settings the schema refuses, each reported with the value it falls back to. */
function dropInvalid(
  layer: Record<string, unknown>,
  below: Record<string, unknown>,
  report: Report,
): Record<string, unknown> {
  let kept = layer;
  // Each round drops at least one key, so this ends; the bound only guards against a schema bug.
  for (let round = 0; round < 100; round++) {
    const checked = ConfigSchema.safeParse(deepMerge(below, kept));
    if (checked.success) return kept;
    const paths = checked.error.issues.map((issue) => settingPath(issue.path));
    if (paths.some((path) => path.length === 0)) break;
    const fallback = ConfigSchema.parse(below);
    const before = kept;
    for (const [i, issue] of checked.error.issues.entries()) {
      const path = paths[i] ?? [];
      const to = valueAt(fallback, path);
      report(
        issue.path as (string | number)[],
        `${issue.message}; ${path.join('.')} falls back to ${to === undefined ? 'its default' : JSON.stringify(to)}`,
      );
      kept = withoutPath(kept, path);
    }
    // A rule about settings this file does not hold (a cross-field check) cannot be fixed by
    // dropping anything: ignore the file, as before.
    if (kept === before) break;
  }
  report([], 'the settings could not be checked; this file is ignored');
  return {};
}

/** The setting an issue belongs to: its path up to the last key (a list item drops its whole list). */
function settingPath(path: readonly PropertyKey[]): string[] {
  const keys: string[] = [];
  for (const part of path) {
    if (typeof part !== 'string') break;
    keys.push(part);
  }
  return keys;
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const key of path) at = isPlainObject(at) ? at[key] : undefined;
  return at;
}

function withoutPath(value: Record<string, unknown>, path: readonly string[]): Record<string, unknown> {
  const [head, ...rest] = path;
  if (head === undefined || !(head in value)) return value;
  const { [head]: child, ...others } = value;
  if (rest.length === 0 || !isPlainObject(child)) return others;
  const inner = withoutPath(child, rest);
  if (inner === child) return value;
  return Object.keys(inner).length === 0 ? others : { ...others, [head]: inner };
}

/**
 * The dotted settings an unparseable file tried to set: its `key:` lines with their indentation
 * as nesting. A guess by design (the YAML is broken), good enough to name what fell back.
 */
export function attemptedSettings(text: string): string[] {
  const stack: { indent: number; key: string }[] = [];
  const found: string[] = [];
  for (const line of text.split('\n')) {
    const match = /^( *)([A-Za-z_][\w-]*)\s*:(.*)$/.exec(line);
    if (!match) continue;
    const indent = match[1]?.length ?? 0;
    while (stack.length > 0 && (stack.at(-1)?.indent ?? 0) >= indent) stack.pop();
    stack.push({ indent, key: match[2] ?? '' });
    const rest = (match[3] ?? '').replace(/\s+#.*$/, '').trim();
    if (rest !== '') found.push(stack.map((entry) => entry.key).join('.'));
  }
  return [...new Set(found)];
}

function fellBack(file: string, settings: readonly string[], fallback: Config): Problem[] {
  if (settings.length === 0) return [];
  const shown = settings.slice(0, 12).map((path) => {
    const to = valueAt(fallback, path.split('.'));
    return `${path} (now ${to === undefined ? 'unset' : JSON.stringify(to)})`;
  });
  const more = settings.length > shown.length ? `, and ${settings.length - shown.length} more` : '';
  return [
    {
      file,
      line: 1,
      message: `these settings of the file fell back: ${shown.join(', ')}${more}`,
      severity: 'error',
    },
  ];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const existing = out[key];
    out[key] = isPlainObject(existing) && isPlainObject(value) ? deepMerge(existing, value) : value;
  }
  return out;
}

/** The commented file `lore init` writes: every key with its default, ready to uncomment. */
export function renderConfigTemplate(): string {
  return `#${CONFIG_SCHEMA_COMMENT}
# lore configuration for this repository. Every key is optional; the values shown are the defaults.
# The user tier's ~/.lore/config.yaml (or $LORE_HOME/config.yaml) is read first; this file wins.
#
# search:
#   limit: 10            # results of \`lore search\` when --limit is not given
#   weights:             # BM25 weight of each field
#     summary: 8
#     tags: 4
#     scope: 3           # tools, commands, paths, stack, category
#     structured: 2      # mistake, remediation, context/observation/implication/action, evidence
#     body: 1
# votes:
#   halfLifeDays: 180    # a vote's weight halves every N days; 0 disables decay
# defaults:              # used by \`lore add\` when a flag is not given
#   category: technical
#   severity: medium
#   priority: 5
#   confidence: 0.9
# capture:               # \`lore scan\`: mining agent transcripts for lesson candidates
#   confidenceFloor: 0.5 # below it a candidate needs review and is never injected
#   backgroundIntervalHours: 24  # \`lore scan --background\` runs at most this often
#   window: 40           # events a failed call stays open for its fix
#   maxCandidatesPerScan: 50  # new candidates one scan may add (the rest are left out, reported)
#   confidence: { base: 0.4, tier1: 0.85, fixConfirmed: 0.2, userCorrection: 0.15, multiSession: 0.1, multiProject: 0.1, causal: 0.05, retry: 0.1, hang: 0.1 }
#   priority: { base: 3, multiSession: 2, multiProject: 1, hang: 1, dataLoss: 1, userCorrection: 1, fixConfirmed: 1, selfReported: 1, singleOccurrence: -1 }
# inject:                # what the agent hooks inject (see README: how the hook works)
#   maxLessons: 3        # lessons per hook output
#   maxChars: 4096       # characters per hook output (at most 10000)
#   sessionLessons: 20   # lessons per agent context and session
#   minConfidence: 0.5   # lessons below this confidence never inject
#   minPriority: 1       # lessons below this priority never inject
#   compactForgetPriority: 7  # after a compaction, lessons with this priority or more may come back
#   startupLessons: 3    # top lessons shown at session start
#   startupChars: 1500
#   guards: true         # false: guard lessons advise instead of denying the call (checkpoints still deny once)
# docs:                  # the docs knowledge base (\`lore docs\`, \`lore search --kind doc\`)
#   roots: [docs]        # directories of Markdown docs; * matches one path segment
#   hybridWeight: 0.5    # weight of the body-level score in \`lore search --kind doc --hybrid\`
#   taskPrefixes: []     # task id prefixes accepted in related_artifacts (PROJ: PROJ-123)
# views:                 # \`lore render\`: LEARNINGS.md and managed sections in agent instruction files
#   render: false        # true: every lesson write renders them again
#   out: LEARNINGS.md    # relative to the repository root
#   agentFiles: []       # any of AGENTS.md, CLAUDE.md, GEMINI.md (a section between lore:begin/lore:end)
#   sectionLimit: 50     # lessons in a managed section, most severe first
#   tiers: [project, user]  # whose lessons the views show
# aggregate:             # \`lore aggregate\`: one agent skill per tool with many lessons
#   enabled: false       # true: every lesson write updates the skills
#   threshold: 5         # active project lessons tagged tool:<name> a tool needs
#   dir: .claude/skills  # the skills folder (Claude Code's project skills)
# prune:                 # \`lore prune\`: stale lessons and the age rule
#   maxAgeDays: 365      # lessons created longer ago than this may be archived by age (at least 30)
#   maxSeverity: low     # ... if their severity is at most this (low or medium; never high or critical)
#   taskPaths: []        # where evidence tasks live, e.g. ['docs/tasks/{task}.md']; empty: tasks never make a lesson stale
# duplicates:
#   threshold: 0.4       # similarity (0-1) from which lessons count as near-duplicates
# distill:               # \`lore distill\`: candidates rewritten by a model you configure (off by default)
#   provider: none       # anthropic, openai (any OpenAI-compatible endpoint) or command (claude -p, codex exec)
#   model: ...           # the model name the endpoint expects
#   timeoutSeconds: 60   # give up on one answer after this long; the candidate stays as it was
#   maxOutputTokens: 1000
#   dailyCalls: 20       # model calls per UTC day on this machine
#   dailyTokens: 40000   # tokens (prompt and answer) per UTC day on this machine
#   # baseUrl, apiKeyEnv and command are read from ~/.lore/config.yaml only (a loopback baseUrl may be set here)
`;
}
