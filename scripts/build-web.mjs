// Builds the dashboard (web/) into dist/web/: one bundled script and one stylesheet, served by
// `lore serve` from the package itself. Nothing is fetched at run time.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const out = `${root}dist/web`;
mkdirSync(`${out}/assets`, { recursive: true });
await build({
  entryPoints: [`${root}web/src/main.ts`],
  outfile: `${out}/assets/app.js`,
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  sourcemap: false,
  logLevel: 'warning',
});
await build({
  entryPoints: [`${root}web/styles.css`],
  outfile: `${out}/assets/app.css`,
  bundle: true,
  minify: true,
  logLevel: 'warning',
});
copyFileSync(`${root}web/index.html`, `${out}/index.html`);
