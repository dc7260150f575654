import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  applyManagedSection,
  renderSectionBlock,
  SECTION_BEGIN,
  SECTION_END,
} from '../../src/core/views/managed-section.js';
import {
  lessonTools,
  planSkills,
  renderSkill,
  skillDescription,
  skillName,
} from '../../src/core/views/plan-skills.js';
import type { SkillLesson } from '../../src/core/views/plan-skills.js';
import { renderLearnings } from '../../src/core/views/render-learnings.js';
import { learningsText, sectionText } from '../../src/store/views/workspace-views.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/views/${name}`, import.meta.url), 'utf8');
const lessons = JSON.parse(fixture('lessons.json')) as SkillLesson[];

describe('render: golden files', () => {
  it('LEARNINGS.md: by category, newest first, id, summary, tier and severity badges', () => {
    expect(learningsText(lessons)).toBe(fixture('learnings.md'));
  });

  // ADD's AC-027: the generated view has each entry's id, title, badges and body.
  it('LEARNINGS.md carries each body indented under its entry; the managed section stays one line each', () => {
    const page = learningsText(lessons);
    expect(page).toContain('\n  CI mounts the workspace read-only, so pytest');
    expect(page).not.toContain('<!--');
    expect(sectionText(lessons, 10)).not.toContain('CI mounts the workspace');
  });

  it('the managed section: the most severe lessons up to the limit, and how many were left out', () => {
    expect(sectionText(lessons, 5)).toBe(fixture('section.md'));
  });

  it('the aggregated skill of a tool', () => {
    const plan = planSkills(lessons, 3).find((p) => p.name === 'lore-pytest');
    expect(plan && renderSkill(plan)).toBe(fixture('skill-lore-pytest.md'));
  });

  it('does not depend on the order of its input', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(lessons, { minLength: lessons.length }), (shuffled) => {
        expect(learningsText(shuffled)).toBe(fixture('learnings.md'));
        expect(planSkills(shuffled, 3).map(renderSkill)).toEqual(planSkills(lessons, 3).map(renderSkill));
      }),
    );
  });

  it('says so when there are no lessons', () => {
    expect(renderLearnings([], { title: 'T', level: 1, intro: 'i' })).toBe(
      '# T\n\ni\n\nNo active lessons yet.\n',
    );
  });
});

describe('managed section', () => {
  const body = 'rendered\n';
  const block = renderSectionBlock(body);
  const crlfBlock = block.replaceAll('\n', '\r\n');

  it.each([
    ['no file: created with the section only', undefined, `${block}\n`, 'created'],
    ['an empty file', '', `${block}\n`, 'appended'],
    [
      'a file ending in a newline: a blank line before the section',
      '# Notes\n',
      `# Notes\n\n${block}\n`,
      'appended',
    ],
    ['a file without a final newline', '# Notes', `# Notes\n\n${block}\n`, 'appended'],
    ['a file ending in a blank line', '# Notes\n\n', `# Notes\n\n${block}\n`, 'appended'],
    [
      'markers present: only the inside is replaced, all outside kept, the section in CRLF like the file',
      `a\r\n${SECTION_BEGIN}\nold\n${SECTION_END} tail\r\nb`,
      `a\r\n${crlfBlock} tail\r\nb`,
      'replaced',
    ],
    [
      'a CRLF file: the section appended in CRLF',
      '# Notes\r\nmore\r\n',
      `# Notes\r\nmore\r\n\r\n${crlfBlock}\r\n`,
      'appended',
    ],
    [
      'a CRLF file without a final newline',
      '# Notes\r\nmore',
      `# Notes\r\nmore\r\n\r\n${crlfBlock}\r\n`,
      'appended',
    ],
    [
      'a file with both line breaks: the section in LF',
      `a\r\nb\n${SECTION_BEGIN}\r\nold\r\n${SECTION_END}\r\n`,
      `a\r\nb\n${block}\r\n`,
      'replaced',
    ],
    [
      'markers with extra text inside the comment',
      `x\n<!-- lore:begin by hand -->\nold\n<!-- lore:end here -->\ny\n`,
      `x\n${block}\ny\n`,
      'replaced',
    ],
  ] as const)('%s', (_name, existing, expected, placement) => {
    expect(applyManagedSection(existing, body)).toEqual({
      ok: true,
      text: expected,
      changed: true,
      placement,
    });
  });

  it.each([
    ['a begin without an end', `a\n${SECTION_BEGIN}\nb\n`, 2, 'without a'],
    ['an end without a begin', `a\nb\n${SECTION_END}\n`, 3, 'without a'],
    ['two begins', `${SECTION_BEGIN}\n${SECTION_BEGIN}\n${SECTION_END}\n`, 2, 'second'],
    ['two ends', `${SECTION_BEGIN}\n${SECTION_END}\n${SECTION_END}\n`, 3, 'second'],
    ['the end before the begin', `${SECTION_END}\nx\n${SECTION_BEGIN}\n`, 1, 'comes before'],
    ['a marker comment not closed on its line', `x\n<!-- lore:begin\n-->\n${SECTION_END}\n`, 2, 'not closed'],
  ])('refuses %s', (_name, existing, line, message) => {
    const result = applyManagedSection(existing, body);
    expect(result).toMatchObject({ ok: false, line });
    expect(result.ok === false && result.message).toContain(message);
  });

  it('reports nothing changed when the section is already current', () => {
    const once = applyManagedSection('# Notes\n', body);
    expect(once.ok && applyManagedSection(once.text, body)).toMatchObject({ ok: true, changed: false });
  });

  it('property: applying twice is applying once, and the text around the markers is unchanged', () => {
    const noMarkers = fc
      .string({ unit: 'grapheme', maxLength: 300 })
      .filter((s) => !s.includes('<!-- lore:'));
    const text = fc.oneof(
      noMarkers,
      fc
        .array(fc.constantFrom('# h', '', 'line', '<!-- c -->', '\r'), { maxLength: 8 })
        .map((l) => l.join('\n')),
    );
    fc.assert(
      fc.property(text, noMarkers, noMarkers, (content, first, second) => {
        const once = applyManagedSection(content, first);
        expect(once.ok).toBe(true);
        const onceText = once.ok ? once.text : '';
        const twice = applyManagedSection(onceText, first);
        expect(twice).toMatchObject({ ok: true, text: onceText, changed: false });
        // a new body replaces only the inside of the markers
        const other = applyManagedSection(onceText, second);
        const otherText = other.ok ? other.text : '';
        const begin = onceText.indexOf(SECTION_BEGIN);
        expect(onceText.startsWith(content)).toBe(true);
        expect(otherText.slice(0, begin)).toBe(onceText.slice(0, begin));
        expect(otherText.slice(otherText.indexOf(SECTION_END))).toBe(
          onceText.slice(onceText.indexOf(SECTION_END)),
        );
        expect(applyManagedSection(otherText, first)).toMatchObject({ ok: true, text: onceText });
      }),
    );
  });
});

describe('managed section: marker text that is not the section', () => {
  const body = 'rendered\n';
  const block = renderSectionBlock(body);
  const example = (fence: string) =>
    `${fence}markdown\n${SECTION_BEGIN}\n(my example)\n${SECTION_END}\n${fence}\n`;

  it.each([
    ['a ``` fence', example('```')],
    ['a ~~~ fence', example('~~~')],
    [
      'a longer fence closed by a longer one',
      `\`\`\`\`\n${SECTION_END}\n\`\`\`\n${SECTION_BEGIN}\n\`\`\`\`\`\n`,
    ],
    ['a fence in a list item', `- see:\n  \`\`\`\n  ${SECTION_BEGIN}\n  ${SECTION_END}\n  \`\`\`\n`],
  ])('markers in %s are an example: the section is appended, the example kept', (_name, fenced) => {
    const existing = `# Rules\n\n${fenced}\nMore rules.\n`;
    const once = applyManagedSection(existing, body);
    expect(once).toEqual({ ok: true, text: `${existing}\n${block}\n`, changed: true, placement: 'appended' });
    expect(once.ok && applyManagedSection(once.text, body)).toMatchObject({ ok: true, changed: false });
  });

  it('the real markers after an example are the ones replaced', () => {
    const existing = `${example('```')}\n${SECTION_BEGIN}\nold\n${SECTION_END}\ntail\n`;
    expect(applyManagedSection(existing, body)).toMatchObject({
      ok: true,
      text: `${example('```')}\n${block}\ntail\n`,
      placement: 'replaced',
    });
  });

  it('a fence left open hides nothing: the section appended after it is found again', () => {
    const once = applyManagedSection('# Rules\n```sh\nnpm test\n', body);
    expect(once.ok && applyManagedSection(once.text, body)).toMatchObject({ ok: true, changed: false });
  });

  it('a body that spells the markers (a lesson about the section) is defused and still renders twice the same', () => {
    const spelled = `- Edit outside the ${SECTION_END} marker, never inside ${SECTION_BEGIN}\n`;
    const once = applyManagedSection('# mine\n', spelled);
    expect(once.ok).toBe(true);
    const text = once.ok ? once.text : '';
    expect(text.split(SECTION_BEGIN)).toHaveLength(2);
    expect(text.split(SECTION_END)).toHaveLength(2);
    expect(text).toContain('&lt;!-- lore:end --> marker, never inside &lt;!-- lore:begin -->');
    expect(applyManagedSection(text, spelled)).toMatchObject({ ok: true, changed: false });
  });

  it('a lesson summary that spells a marker renders as text in the section, not as the marker', () => {
    const lesson = {
      ...lessons[0],
      summary: 'Edit CLAUDE.md outside the <!-- lore:end --> marker',
    } as SkillLesson;
    const text = sectionText([lesson], 10);
    expect(text).toContain('Edit CLAUDE.md outside the &lt;!-- lore:end --\\> marker');
    expect(text).not.toContain('<!-- lore:');
    expect(applyManagedSection(undefined, text).ok).toBe(true);
  });
});

describe('aggregation', () => {
  const make = (id: number, tags: string[], commands: string[] = []): SkillLesson => ({
    ...(lessons[0] as SkillLesson),
    id: `000000000${id}`,
    tags,
    commands,
  });

  it.each([
    ['below the threshold: no skill', 4, 5, []],
    ['at the threshold: one skill', 5, 5, ['lore-pytest:5']],
    ['above it', 7, 5, ['lore-pytest:7']],
    ['a lower threshold from the config', 2, 2, ['lore-pytest:2']],
  ])('%s', (_name, count, threshold, expected) => {
    const list = Array.from({ length: count }, (_, i) => make(i, ['tool:pytest']));
    expect(planSkills(list, threshold).map((p) => `${p.name}:${p.lessons.length}`)).toEqual(expected);
  });

  it('counts a lesson once per tool it is tagged with, and ignores other tags', () => {
    const list = [
      make(1, ['tool:pytest', 'tool:uv']),
      make(2, ['tool:pytest', 'tool:pytest']),
      make(3, ['lang:python', 'pytest']),
      make(4, ['tool:uv']),
    ];
    expect(planSkills(list, 2).map((p) => `${p.name}:${p.lessons.length}`)).toEqual([
      'lore-pytest:2',
      'lore-uv:2',
    ]);
  });

  it.each([
    ['pytest', 'lore-pytest'],
    ['Docker_Compose', 'lore-docker-compose'],
    ['@scope/pkg', 'lore-scope-pkg'],
    ['___', undefined],
    ['x'.repeat(100), `lore-${'x'.repeat(59)}`],
  ])('skill name of %s', (tool, expected) => {
    expect(skillName(tool)).toBe(expected);
  });

  it('reads tool tags case-insensitively', () => {
    expect(lessonTools({ tags: ['Tool:PyTest', 'tool:', 'tools:x', 'tool:uv'] })).toEqual(['PyTest', 'uv']);
  });

  it('keeps the frontmatter valid YAML, with a description under 1,024 characters that names the patterns', () => {
    const many = Array.from({ length: 6 }, (_, i) =>
      make(i, ['tool:git'], [`git\\s+"push"\\s+${'x'.repeat(300)}${i}`]),
    );
    const [plan] = planSkills(many, 5);
    const text = plan ? renderSkill(plan) : '';
    const front = parse(text.split('---\n')[1] ?? '') as {
      name: string;
      description: string;
      metadata: object;
    };
    expect(front.name).toBe('lore-git');
    expect(front.description.length).toBeLessThanOrEqual(1024);
    expect(front.description).toContain('git\\s+"push"');
    expect(front.description.endsWith('...')).toBe(true);
    expect(front.metadata).toEqual({ 'generated-by': 'lore', tool: 'git', lessons: '6' });
    expect(plan && skillDescription(plan)).toBe(front.description);
  });
});
