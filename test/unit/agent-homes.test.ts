/** The agents' folders from the environment: one rule for capture and for `lore install`. */
import { describe, expect, it } from 'vitest';
import { claudeConfigDirs, codexHome, geminiHome } from '../../src/store/fs/agent-homes.js';
import { agentHookSettingsFile, agentMcpConfigFile } from '../../src/store/install/agent-config-paths.js';
import { claudeProjectsDirs } from '../../src/capture/claude-code/paths.js';

const HOME = '/home/me';

describe('agent homes', () => {
  it.each([
    [{}, ['/home/me/.claude']],
    [{ CLAUDE_CONFIG_DIR: '  ' }, ['/home/me/.claude']],
    [{ CLAUDE_CONFIG_DIR: '/a' }, ['/a']],
    [{ CLAUDE_CONFIG_DIR: '/a, /b ,' }, ['/a', '/b']],
  ])('CLAUDE_CONFIG_DIR %j: %j', (env, expected) => {
    expect(claudeConfigDirs(env, HOME)).toEqual(expected);
  });

  it.each([
    [{}, '/home/me/.codex', '/home/me/.gemini'],
    [{ CODEX_HOME: ' /c ', GEMINI_CLI_HOME: '/g' }, '/c', '/g/.gemini'],
    [{ CODEX_HOME: '', GEMINI_CLI_HOME: '' }, '/home/me/.codex', '/home/me/.gemini'],
  ])('%j: codex %s, gemini %s', (env, codex, gemini) => {
    expect(codexHome(env, HOME)).toBe(codex);
    expect(geminiHome(env, HOME)).toBe(gemini);
  });

  it('capture and install read a list in CLAUDE_CONFIG_DIR the same way', () => {
    const env = { HOME, CLAUDE_CONFIG_DIR: '/a,/b' };
    expect(claudeProjectsDirs(env, HOME)).toEqual(['/a/projects', '/b/projects']);
    expect(agentHookSettingsFile('claude-code', 'user', env, '/repo')).toBe('/a/settings.json');
    expect(agentMcpConfigFile('claude-code', 'user', env, '/repo')).toBe('/a/.claude.json');
  });

  it.each([
    ['claude-code', { HOME }, '/home/me/.claude.json'],
    ['codex', { HOME, CODEX_HOME: '/c' }, '/c/config.toml'],
    ['gemini', { HOME, GEMINI_CLI_HOME: '/g' }, '/g/.gemini/settings.json'],
  ] as const)('the %s MCP registration at user scope: %j -> %s', (agent, env, expected) => {
    expect(agentMcpConfigFile(agent, 'user', env, '/repo')).toBe(expected);
  });
});
