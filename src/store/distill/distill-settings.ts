/**
 * The provider `lore distill` talks to, from the `distill` config: which API or program, where,
 * with which key (read from the environment variable the config names, never stored), and the
 * limits.
 *
 * Where requests go and what runs is taken from the user's own config: a project config (committed,
 * so written by whoever wrote the repository) that sets `command`, `apiKeyEnv` or a `baseUrl`
 * outside this machine is refused, because it could send the user's API key, or their candidates,
 * somewhere they did not choose, or run a program of its choosing. A project may pick the provider,
 * the model, a loopback endpoint (a local Ollama) and tighter limits.
 */
import { LoreError } from '../../core/errors.js';
import type { BudgetLimits } from '../../core/distill/distill-budget.js';
import type { Config } from '../../core/lesson/schema.js';
import { parseConfigLayers } from '../workspace/config-file.js';
import type { Workspace } from '../workspace/workspace.js';
import { createAnthropicProvider, createOpenAiProvider } from './api-providers.js';
import { createCommandProvider } from './command-provider.js';
import type { DistillProvider } from './distill-provider.js';

export type DistillSettings = {
  provider: DistillProvider;
  timeoutMs: number;
  maxOutputTokens: number;
  limits: BudgetLimits;
};

const DEFAULTS = {
  anthropic: { baseUrl: 'https://api.anthropic.com', apiKeyEnv: 'ANTHROPIC_API_KEY' },
  openai: { baseUrl: 'https://api.openai.com/v1', apiKeyEnv: 'OPENAI_API_KEY' },
} as const;

const HELP = 'see "Distilling candidates with a model" in the README';

/** Requests to this machine's own loopback never leave it. */
export function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
  } catch {
    return false;
  }
}

/** Refuses endpoint, key and program settings the user's own config did not make. */
function refuseProjectEndpoints(ws: Workspace, distill: Config['distill']): void {
  if (ws.project === undefined) return;
  const userFile = ws.user.layout.configFile;
  const mine = parseConfigLayers([userFile], ws.displayPath).config.distill;
  const keys = ['command', 'apiKeyEnv', 'baseUrl'] as const;
  for (const key of keys) {
    if (JSON.stringify(distill[key]) === JSON.stringify(mine[key])) continue;
    if (key === 'baseUrl' && distill.baseUrl !== undefined && isLoopback(distill.baseUrl)) continue;
    throw new LoreError(
      'invalid',
      `${ws.displayPath(ws.project.layout.configFile)} sets distill.${key}; lore takes it from your user config only, so a repository cannot send your API key or your candidates where you did not choose, or run a program of its choosing`,
      { hint: `set distill.${key} in ${ws.displayPath(userFile)} instead (${HELP})` },
    );
  }
}

export function openDistillProvider(ws: Workspace, env: NodeJS.ProcessEnv): DistillSettings {
  const distill = ws.config.distill;
  if (distill.provider === 'none') {
    throw new LoreError('invalid', 'distillation is off (distill.provider is none)', {
      hint: `set distill.provider (anthropic, openai or command) and distill.model in ~/.lore/config.yaml or .lore/config.yaml; ${HELP}`,
    });
  }
  refuseProjectEndpoints(ws, distill);
  const limits = { dailyCalls: distill.dailyCalls, dailyTokens: distill.dailyTokens };
  const common = {
    timeoutMs: distill.timeoutSeconds * 1000,
    maxOutputTokens: distill.maxOutputTokens,
    limits,
  };
  if (distill.provider === 'command') {
    if (distill.command === undefined)
      throw new LoreError('invalid', 'distill.provider is command, but distill.command is not set', {
        hint: `set distill.command in your user config, e.g. [claude, -p] or [codex, exec, "-"] (${HELP})`,
      });
    return { ...common, provider: createCommandProvider({ argv: distill.command, cwd: ws.cwd, env }) };
  }
  if (distill.model === undefined)
    throw new LoreError('invalid', `distill.provider is ${distill.provider}, but distill.model is not set`, {
      hint: `name the model the endpoint expects in distill.model (${HELP})`,
    });
  const defaults = DEFAULTS[distill.provider];
  const baseUrl = distill.baseUrl ?? defaults.baseUrl;
  const keyEnv = distill.apiKeyEnv ?? defaults.apiKeyEnv;
  const apiKey = env[keyEnv]?.trim() || undefined;
  if (apiKey === undefined && !isLoopback(baseUrl))
    throw new LoreError('invalid', `${keyEnv} is not set; ${baseUrl} needs an API key`, {
      hint: `export ${keyEnv}=... (lore reads the key from the environment and never stores it), or name another variable in distill.apiKeyEnv`,
    });
  const settings = { baseUrl, model: distill.model, apiKey };
  const provider =
    distill.provider === 'anthropic' ? createAnthropicProvider(settings) : createOpenAiProvider(settings);
  return { ...common, provider };
}
