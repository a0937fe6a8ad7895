#!/usr/bin/env node
// Builds the publishable package into dist/npm, like @pubstream/client (libs/client/scripts/build.mjs):
//   dist/npm/*.js + *.d.ts       ESM for Node (tsc)
//   dist/npm/package.json        the manifest `npm publish ./dist/npm` ships: @pubstream/client at
//                                the client's version and testcontainers are its only dependencies
//   dist/npm/README.md
// `--out DIR` builds into DIR instead (the packing test). The repo's own package.json points at
// src/ so the monorepo runs the TypeScript directly.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const repo = join(root, '..', '..');
const outArg = process.argv.indexOf('--out');
const out = outArg > 0 ? resolve(process.argv[outArg + 1]) : join(root, 'dist', 'npm');
const tsc = (...args) => execFileSync(process.execPath, [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), ...args], { stdio: 'inherit' });
rmSync(out, { recursive: true, force: true });

// In the repo @pubstream/client resolves to its TypeScript sources; the published .d.ts files must
// name the package, so compile against the client's declarations instead.
// Inside the repo: a tsconfig finds @types/node in the node_modules above it.
mkdirSync(join(repo, '.tmp'), { recursive: true });
const scratch = mkdtempSync(join(repo, '.tmp', 'testcontainers-build-'));
try {
  tsc('-p', join(repo, 'libs', 'client', 'tsconfig.build.json'), '--emitDeclarationOnly', '--outDir', join(scratch, 'client'));
  const config = {
    extends: join(root, 'tsconfig.build.json'),
    compilerOptions: { rootDir: join(root, 'src'), outDir: out, paths: { '@pubstream/client': [join(scratch, 'client', 'index.d.ts')] } },
    include: [join(root, 'src')],
    exclude: [join(root, 'src', '**', '*.test.ts')],
  };
  writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify(config));
  tsc('-p', join(scratch, 'tsconfig.json'));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const client = JSON.parse(readFileSync(join(repo, 'libs', 'client', 'package.json'), 'utf8'));
delete manifest.private;
delete manifest.scripts;
delete manifest.devDependencies;
manifest.dependencies = { ...manifest.dependencies, '@pubstream/client': `^${client.version}` };
manifest.exports = {
  '.': { types: './index.d.ts', import: './index.js', default: './index.js' },
  './package.json': './package.json',
};
manifest.types = './index.d.ts';
manifest.publishConfig = { access: 'public' };
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
copyFileSync(join(root, 'README.md'), join(out, 'README.md'));
console.log(`@pubstream/testcontainers ${manifest.version} built into ${out}`);
