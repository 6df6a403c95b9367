// Builds the pages the overwatch binary serves: each folder of src/ but
// common/ is a page (index.html, main.js, main.css); its scripts and styles
// are bundled and minified with esbuild into dist/<page>/, with the licences
// of what they bundle beside them (main.js.LEGAL.txt, main.css.LEGAL.txt)
// and the full licence texts in dist/licenses/. dist/ is committed and
// embedded in the binary (web.go), so serving the pages needs no npm step.
// Run by `make web`; `node build.mjs <page>...` rebuilds only those pages.
import * as esbuild from 'esbuild';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';

const src = 'src';
const dist = 'dist';
const all = readdirSync(src, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'common')
  .map((d) => d.name)
  .sort();
const asked = process.argv.slice(2);
for (const p of asked) if (!all.includes(p)) throw new Error(`no page ${p} in ${src}/`);
const pages = asked.length ? asked : all;
if (!asked.length) rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

for (const page of pages) {
  const from = join(src, page);
  const to = join(dist, page);
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  const entryPoints = ['main.js', 'main.css'].map((f) => join(from, f)).filter(existsSync);
  await esbuild.build({
    entryPoints,
    outdir: to,
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    legalComments: 'linked',
    loader: { '.png': 'dataurl', '.svg': 'dataurl', '.woff2': 'dataurl' },
    logLevel: 'warning',
  });
  copyFileSync(join(from, 'index.html'), join(to, 'index.html'));
  const assets = join(from, 'assets');
  if (existsSync(assets)) cpSync(assets, join(to, 'assets'), { recursive: true });
}

copyFileSync(join(src, 'common', 'favicon.svg'), join(dist, 'favicon.svg'));

// The licences of the front-end dependencies, as their packages ship them.
mkdirSync(join(dist, 'licenses'), { recursive: true });
const pkg = JSON.parse(await (await import('node:fs/promises')).readFile('package.json', 'utf8'));
for (const dep of Object.keys(pkg.dependencies).sort()) {
  const dir = join('node_modules', dep);
  const lic = readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
  if (!lic) throw new Error(`${dep}: no licence file in its package`);
  copyFileSync(join(dir, lic), join(dist, 'licenses', `${dep}.txt`));
}
console.log(`built ${pages.join(', ')} into ${dist}/`);
