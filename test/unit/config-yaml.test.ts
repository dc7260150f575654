import { describe, expect, it } from 'vitest';
import {
  attemptedSettings,
  parseConfigYaml,
  renderConfigTemplate,
} from '../../src/core/lesson/config-yaml.js';
import { defaultConfig } from '../../src/core/lesson/schema.js';

const USER = '~/.lore/config.yaml';
const PROJECT = '.lore/config.yaml';

describe('parseConfigYaml', () => {
  it('gives the defaults with no files', () => {
    expect(parseConfigYaml([])).toEqual({ config: defaultConfig(), problems: [] });
  });

  it.each([
    { name: 'empty', text: '' },
    { name: 'comments only', text: '# nothing here\n' },
    { name: 'the template', text: renderConfigTemplate() },
  ])('reads an $name file as the defaults', ({ text }) => {
    expect(parseConfigYaml([{ file: PROJECT, text }])).toEqual({ config: defaultConfig(), problems: [] });
  });

  it('layers the project over the user, key by key', () => {
    const { config, problems } = parseConfigYaml([
      { file: USER, text: 'search:\n  limit: 20\n  weights:\n    body: 5\nvotes:\n  halfLifeDays: 30\n' },
      { file: PROJECT, text: 'search:\n  weights:\n    summary: 12\nvotes:\n  halfLifeDays: 0\n' },
    ]);
    expect(problems).toEqual([]);
    expect(config.search).toEqual({
      limit: 20,
      weights: { summary: 12, tags: 4, scope: 3, structured: 2, body: 5 },
    });
    expect(config.votes.halfLifeDays).toBe(0);
    expect(config.defaults).toEqual(defaultConfig().defaults);
  });

  it('ignores a file with broken YAML and reports its line', () => {
    const { config, problems } = parseConfigYaml([
      { file: USER, text: 'search:\n  limit: 20\n' },
      { file: PROJECT, text: 'votes:\n  halfLifeDays: 10\nsearch: [unclosed\n' },
    ]);
    expect(config.search.limit).toBe(20);
    expect(config.votes.halfLifeDays).toBe(180);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toMatchObject({ file: PROJECT, severity: 'error' });
    expect(problems[0]?.message).toMatch(/invalid YAML.*ignored/);
    expect(problems[0]?.line).toBe(3); // where `[` opens
    // One warning was not enough: the problem names each setting that fell back, and to what.
    expect(problems.at(-1)?.message).toBe(
      'these settings of the file fell back: votes.halfLifeDays (now 180), search (now {"limit":20,"weights":{"summary":8,"tags":4,"scope":3,"structured":2,"body":1}})',
    );
  });

  it('names the line where an unclosed quote opens, not the end of the file', () => {
    const text = 'search:\n  limit: "20\nvotes:\n  halfLifeDays: 10\ncapture:\n  window: 3\n';
    const { problems } = parseConfigYaml([{ file: PROJECT, text }]);
    expect(problems[0]).toMatchObject({ file: PROJECT, line: 2, severity: 'error' });
    expect(problems[0]?.message).toMatch(
      /opened at line 2 and never closed; the parser stopped at line 7\); this file is ignored$/,
    );
  });

  it('reports a duplicate key at its line and ignores the file', () => {
    const { config, problems } = parseConfigYaml([
      { file: PROJECT, text: 'votes:\n  halfLifeDays: 10\nvotes:\n  halfLifeDays: 20\n' },
    ]);
    expect(config).toEqual(defaultConfig());
    expect(problems).toEqual([
      expect.objectContaining({ file: PROJECT, line: 3, severity: 'error' }),
      expect.objectContaining({
        file: PROJECT,
        message: 'these settings of the file fell back: votes.halfLifeDays (now 180)',
      }),
    ]);
  });

  it.each([
    { name: 'a limit of 0', text: 'search:\n  limit: 0\n', field: 'search.limit', line: 2 },
    {
      name: 'a negative half-life',
      text: '\nvotes:\n  halfLifeDays: -1\n',
      field: 'votes.halfLifeDays',
      line: 3,
    },
    {
      name: 'a weight over 100',
      text: 'search:\n  weights:\n    tags: 101\n',
      field: 'search.weights.tags',
      line: 3,
    },
    {
      name: 'an unknown severity',
      text: 'defaults:\n  severity: dire\n',
      field: 'defaults.severity',
      line: 2,
    },
    {
      name: 'a fractional priority',
      text: 'defaults:\n  priority: 1.5\n',
      field: 'defaults.priority',
      line: 2,
    },
  ])('drops only $name, naming the field, its line and what it falls back to', ({ text, field, line }) => {
    const { config, problems } = parseConfigYaml([
      { file: USER, text: 'search:\n  limit: 7\n' },
      { file: PROJECT, text: `${text}inject:\n  maxLessons: 5\n` },
    ]);
    expect(config).toEqual({
      ...defaultConfig(),
      search: { ...defaultConfig().search, limit: 7 },
      inject: { ...defaultConfig().inject, maxLessons: 5 },
    });
    expect(problems).toEqual([expect.objectContaining({ file: PROJECT, field, line, severity: 'error' })]);
    const fallback =
      field === 'search.limit'
        ? 7
        : field
            .split('.')
            .reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], defaultConfig());
    expect(problems[0]?.message).toContain(`${field} falls back to ${JSON.stringify(fallback)}`);
  });

  it.each([
    { name: 'a list', text: '- a\n' },
    { name: 'a scalar', text: 'hello\n' },
  ])('ignores a file holding $name', ({ text }) => {
    expect(parseConfigYaml([{ file: PROJECT, text }])).toEqual({
      config: defaultConfig(),
      problems: [
        { file: PROJECT, line: 1, message: 'expected a mapping; this file is ignored', severity: 'error' },
      ],
    });
  });

  it('warns about an unknown key and still applies the rest of the file', () => {
    const { config, problems } = parseConfigYaml([
      { file: PROJECT, text: 'search:\n  limit: 3\nsearhc:\n  limit: 4\n' },
    ]);
    expect(config.search.limit).toBe(3);
    expect(problems).toEqual([
      expect.objectContaining({ file: PROJECT, field: 'searhc', severity: 'warning' }),
    ]);
    expect(problems[0]?.message).toContain('searhc');
  });

  it('names the settings of an unparseable file, nested by indentation', () => {
    expect(
      attemptedSettings(
        '# c\nsearch:\n  limit: 5  # five\n  weights:\n    body: 2\ninject: {maxLessons: 2\nvotes:\n',
      ),
    ).toEqual(['search.limit', 'search.weights.body', 'inject']);
  });

  it('a later invalid layer does not undo an earlier valid one', () => {
    const { config } = parseConfigYaml([
      { file: USER, text: 'defaults:\n  priority: 8\n' },
      { file: PROJECT, text: 'defaults:\n  priority: 99\n' },
    ]);
    expect(config.defaults.priority).toBe(8);
  });
});
