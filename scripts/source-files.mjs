// What the build and lint scripts share: the TypeScript files under a folder, and the esbuild
// plugin that keeps `import.meta.url` pointing at a file's own tsc output in dist/.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every `.ts` file under `dir` (declaration files aside), recursively. */
export function listTsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listTsFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * An esbuild plugin: `import.meta.url` in src/<dir>/<file>.ts becomes `urlOf('<dir>/<file>.js')`,
 * an expression for the URL of that file's tsc output in dist/ (each bundle knows where it sits),
 * so files found relative to a module (package.json, schema/, worker scripts) stay where they are.
 */
export function moduleUrls(root, urlOf) {
  return {
    name: 'module-urls',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const rel = relative(`${root}src`, args.path).split('\\').join('/').replace(/\.ts$/, '.js');
        return { contents: text.replaceAll('import.meta.url', urlOf(rel)), loader: 'ts' };
      });
    },
  };
}
