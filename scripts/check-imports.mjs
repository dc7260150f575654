// Two checks of the import graph of src/ and web/src/, run by `npm run lint`:
// - no circles: value imports and dynamic import() calls between project files, found by Tarjan's
//   strongly connected components. Type-only imports (`import type`, `export type`) are erased by
//   the compiler and may close a circle; nothing else may.
// - the hook's folders (scripts/hook-folders.mjs) import at run time only each other and Node
//   built-ins, so the bundled hook starts as fast as a bare `node`.
// Prints each finding with the files involved and exits 1 when there is one.
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listTsFiles } from './source-files.mjs';
import { isHookFile } from './hook-folders.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const ROOTS = ['src', 'web/src'];

// `import x from`, `import { a, type B } from`, `export { a } from`, `export * from`, bare
// `import './x'` and `import('./x')`; `import type` / `export type` are skipped.
const STATIC = /^\s*(import|export)\s+(type\s+)?([^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The modules a file imports at run time: project files resolved to absolute paths, packages as named. */
export function valueImports(file, text) {
  return runtimeSpecifiers(text).map((spec) =>
    spec.startsWith('.') ? resolve(dirname(file), spec.replace(/\.js$/, '.ts')) : spec,
  );
}

function runtimeSpecifiers(text) {
  const specs = [];
  for (const match of text.matchAll(STATIC)) {
    if (match[2] !== undefined) continue; // import type / export type
    const clause = match[3] ?? '';
    // `import { type A, type B } from`: every name type-only, erased like `import type`
    const names = /^\{([^}]*)\}\s+from\s+$/.exec(clause.trim() + ' ');
    if (names && names[1].split(',').every((name) => name.trim() === '' || /^type\s/.test(name.trim())))
      continue;
    specs.push(match[4]);
  }
  for (const match of text.matchAll(DYNAMIC)) specs.push(match[1]);
  return specs;
}

/** A hook file's run-time imports that are neither Node built-ins nor hook files. */
export function hookViolations(file, imports) {
  if (!isHookFile(file)) return [];
  return imports.filter((target) => {
    if (target.startsWith('/') || target.startsWith('src/')) return !isHookFile(target);
    const name = target.replace(/^node:/, '');
    return !builtinModules.includes(name);
  });
}

/** Every strongly connected component of more than one file, or a file importing itself. */
export function findCircles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const circles = [];
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!graph.has(to)) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) circles.push(component.reverse());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles;
}

function main() {
  const graph = new Map();
  const problems = [];
  for (const dir of ROOTS) {
    for (const file of listTsFiles(join(root, dir))) {
      const imports = valueImports(file, readFileSync(file, 'utf8'));
      const local = (target) => (target.startsWith('/') ? relative(root, target) : target);
      for (const bad of hookViolations(relative(root, file), imports.map(local))) {
        problems.push(
          `hook import: ${relative(root, file)} imports ${bad}, outside the hook's folders (scripts/hook-folders.mjs): the hook must start as fast as a bare node; move that work into the manifest build (src/store/manifest/) or into a hook folder`,
        );
      }
      graph.set(
        file,
        imports.filter((target) => target.startsWith('/')),
      );
    }
  }
  for (const circle of findCircles(graph)) {
    problems.push(
      `import circle: ${circle.map((file) => relative(root, file)).join(' -> ')}: move what both sides need into a lower module, or pass it in as an argument`,
    );
  }
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) process.exit(1);
  console.log(`import check: ${graph.size} files, no circles, the hook's folders import only each other`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
