#!/usr/bin/env node
// Builds the publishable package into dist/npm:
//   dist/npm/*.js + *.d.ts          ESM for Node and bundlers (tsc, no Node types: proves browser-safe code)
//   dist/npm/browser/pubstream-client.js   one-file ESM bundle for <script type="module"> (esbuild)
//   dist/npm/package.json, README.md        the manifest that `npm publish ./dist/npm` ships
// `--out DIR` builds into DIR instead (tests that pack the client, without racing each other).
// The repo's own package.json points at src/ so the monorepo runs the TypeScript directly.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync, copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outArg = process.argv.indexOf('--out');
const out = outArg > 0 ? resolve(process.argv[outArg + 1]) : join(root, 'dist', 'npm');
rmSync(out, { recursive: true, force: true });

execFileSync(process.execPath, [join(root, '..', '..', 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json'), '--outDir', out], {
  stdio: 'inherit',
});

await build({
  entryPoints: [join(root, 'src', 'index.ts')],
  outfile: join(out, 'browser', 'pubstream-client.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  minify: true,
  sourcemap: true,
  // Browsers have EventSource; the Node fallback is imported only where it is missing.
  external: ['eventsource'],
  logLevel: 'warning',
});

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
delete manifest.private;
delete manifest.scripts;
manifest.exports = {
  '.': { types: './index.d.ts', import: './index.js', default: './index.js' },
  './browser': './browser/pubstream-client.js',
  './package.json': './package.json',
};
manifest.types = './index.d.ts';
manifest.module = './index.js';
manifest.publishConfig = { access: 'public' };
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
copyFileSync(join(root, 'README.md'), join(out, 'README.md'));
console.log(`@pubstream/client ${manifest.version} built into ${out}`);
