// Import circles in src/ and web/src/: value imports and dynamic import() calls between project
// files, found by Tarjan's strongly connected components. Type-only imports (`import type`,
// `export type`) are erased by the compiler and may close a circle; nothing else may. Run by
// `npm run lint`; prints each circle as a path of files and exits 1 when there is one.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const ROOTS = ['src', 'web/src'];

function listFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

// `import x from`, `import { a, type B } from`, `export { a } from`, `export * from`, bare
// `import './x'` and `import('./x')`; `import type` / `export type` are skipped.
const STATIC = /^\s*(import|export)\s+(type\s+)?([^'";]*?\s+from\s+)?['"](\.[^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** The project files a file imports at run time. */
export function valueImports(file, text) {
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
  return specs.map((spec) => resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
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
  for (const dir of ROOTS) {
    for (const file of listFiles(join(root, dir)))
      graph.set(file, valueImports(file, readFileSync(file, 'utf8')));
  }
  const circles = findCircles(graph);
  for (const circle of circles) {
    console.error(`import circle: ${circle.map((file) => relative(root, file)).join(' -> ')}`);
  }
  if (circles.length > 0) {
    console.error('break it: move what both sides need into a lower module, or pass it in as an argument');
    process.exit(1);
  }
  console.log(`import check: ${graph.size} files, no circles through value or dynamic imports`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
