// plugin/bin/ is committed (the plugin works from a git clone without a build): it must be
// exactly what a fresh build of the sources gives, and the hook must need nothing but Node.
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript, without types
import { bundle, BUNDLES } from '../../scripts/bundle-hook.mjs';
import { isHookFile } from '../../scripts/hook-folders.mjs';

type Spec = { entry: string; out: string; builtinsOnly: boolean };
type Bundled = { out: string; text: string; inputs: string[] };
const specs = BUNDLES as Spec[];
const build = bundle as (spec: Spec) => Promise<Bundled>;
const committed = (out: string) =>
  readFileSync(fileURLToPath(new URL(`../../plugin/bin/${out}`, import.meta.url)), 'utf8');

describe('committed bundles', () => {
  it.each(specs.map((spec) => [spec.out, spec] as const))(
    'plugin/bin/%s matches a fresh build (run npm run build and commit)',
    async (_out, spec) => {
      const fresh = await build(spec);
      expect(committed(spec.out) === fresh.text).toBe(true);
    },
  );

  it('two builds give the same bytes', async () => {
    const [a, b] = await Promise.all([build(specs[0] as Spec), build(specs[0] as Spec)]);
    expect(a.text).toBe(b.text);
  });

  it('the hook requires Node built-ins only and bundles nothing from node_modules', async () => {
    const hook = await build(specs.find((spec) => spec.out === 'lore-hook.cjs') as Spec);
    expect(hook.inputs.filter((input) => input.includes('node_modules'))).toEqual([]);
    const required = [...committed('lore-hook.cjs').matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1] ?? '');
    expect(required.filter((name) => !builtinModules.includes(name.replace(/^node:/, '')))).toEqual([]);
  });

  it.each(['lore-hook-core.cjs', 'lore-hook.cjs', 'lore-mcp.cjs'])(
    '%s bundles only files from the hook folders (scripts/hook-folders.mjs)',
    async (out) => {
      const { inputs } = await build(specs.find((spec) => spec.out === out) as Spec);
      expect(inputs.length).toBeGreaterThan(0);
      expect(inputs.filter((input) => !isHookFile(input))).toEqual([]);
    },
  );

  it('the rebuilder needs no SQLite and no node_modules at run time', () => {
    const required = [...committed('lore-manifest.cjs').matchAll(/require\("([^"]+)"\)/g)].map(
      (m) => m[1] ?? '',
    );
    expect(required.filter((name) => !builtinModules.includes(name.replace(/^node:/, '')))).toEqual([]);
  });
});
