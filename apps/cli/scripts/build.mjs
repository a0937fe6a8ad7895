#!/usr/bin/env node
// The production build of the `pubstream` binary (docs/architecture.md, "How TypeScript runs"):
// one ESM file, apps/cli/dist/pubstream.mjs, that plain `node` runs with no TypeScript loader.
// The workspace packages (@pubstream/*, TypeScript sources) are bundled into it; every other
// package stays an import resolved from node_modules at run time (better-sqlite3 is native, and
// the production dependencies are what the container image installs). esbuild strips types
// without checking them: `tsc -b` in `npm test` is the type check.
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'pubstream.mjs');
rmSync(join(root, 'dist', 'pubstream.mjs'), { force: true });
rmSync(join(root, 'dist', 'pubstream.mjs.map'), { force: true });

/** Bare imports of packages outside the workspace stay imports (resolved from node_modules). */
const thirdPartyExternal = {
  name: 'third-party-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@pubstream/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

const result = await build({
  entryPoints: [join(root, 'src', 'main.ts')],
  outfile: out,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: ['node20'],
  sourcemap: true,
  plugins: [thirdPartyExternal],
  metafile: true,
  logLevel: 'warning',
});

// The packages the bundle imports at run time: each must be a production dependency of the root
// package.json, or the image (npm ci --omit=dev) would start without it.
const manifest = JSON.parse(readFileSync(join(root, '..', '..', 'package.json'), 'utf8'));
const builtins = new Set(builtinModules);
const imported = new Set();
for (const output of Object.values(result.metafile.outputs)) {
  for (const { path, external } of output.imports) {
    if (!external || path.startsWith('node:') || builtins.has(path)) continue;
    imported.add(path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0]);
  }
}
const missing = [...imported].filter((name) => !manifest.dependencies?.[name]);
if (missing.length > 0) {
  console.error(`pubstream build: imported at run time but not a production dependency of package.json: ${missing.join(', ')}`);
  process.exit(1);
}
writeFileSync(join(root, 'dist', 'runtime-packages.json'), JSON.stringify([...imported].sort(), null, 2) + '\n');
chmodSync(out, 0o755);
console.log(`pubstream built into ${out} (${(readFileSync(out).length / 1024).toFixed(0)} KiB; run-time packages: ${[...imported].sort().join(', ')})`);
