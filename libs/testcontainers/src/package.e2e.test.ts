// @pubstream/testcontainers as users get it: packed like the client (scripts/build.mjs, npm pack),
// installed into an empty project next to the client's tarball (everything else from the npm
// registry), type-checked against its .d.ts files, and run with plain node against the image.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { describeWithContainers } from '@pubstream/testing';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const scratch = join(repo, '.tmp', `testcontainers-package-${process.pid}`);
const project = join(scratch, 'project');

const usage = `import { PubstreamContainer, type StartedPubstreamContainer } from '@pubstream/testcontainers';

const pubstream: StartedPubstreamContainer = await new PubstreamContainer()
  .withCollection('news', [{ dataId: 'packed', data: { title: 'From the tarball' } }])
  .withApiKey({ type: 'test' })
  .start();
try {
  const item = await pubstream.client.fetchData('packed');
  console.log(JSON.stringify({ data: item.data, key: pubstream.apiKey.slice(0, 8) }));
} finally {
  await pubstream.stop();
}
// @ts-expect-error: the types are real, not any
new PubstreamContainer().withCollection(42);
`;

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describeWithContainers('@pubstream/testcontainers: the packed package', ['pubstream'], (support) => {
  it('installs from its tarball into an empty project, type-checks and runs there', async () => {
    mkdirSync(project, { recursive: true });
    await run(process.execPath, [join(repo, 'libs', 'client', 'scripts', 'build.mjs'), '--out', join(scratch, 'client')], { cwd: repo });
    await run(process.execPath, [join(repo, 'libs', 'testcontainers', 'scripts', 'build.mjs'), '--out', join(scratch, 'testcontainers')], { cwd: repo });
    const manifest = JSON.parse(readFileSync(join(scratch, 'testcontainers', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['@pubstream/client', 'testcontainers']);
    await run('npm', ['pack', '--silent', join(scratch, 'client'), join(scratch, 'testcontainers'), '--pack-destination', scratch], { cwd: scratch });

    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user-project', private: true, type: 'module' }));
    // --ignore-scripts: testcontainers' optional native helpers (ssh2, cpu-features) need no build here.
    await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline', '../pubstream-client-0.1.0.tgz', '../pubstream-testcontainers-0.1.0.tgz'], {
      cwd: project,
      timeout: 240_000,
    });

    writeFileSync(join(project, 'usage.mts'), usage);
    // The project has no TypeScript of its own: the repo's compiler, and its @types/node.
    const compilerOptions = { noEmit: true, strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2023', 'dom'], types: ['node'], typeRoots: [join(repo, 'node_modules', '@types')] };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['usage.mts'] }));
    await run(process.execPath, [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], { cwd: project }).catch((error: { stdout?: string }) => {
      throw new Error(`the packed types do not check:\n${error.stdout ?? String(error)}`);
    });

    // Node strips nothing here: the same code without its type annotations runs as JavaScript.
    const javascript = usage.replace(', type StartedPubstreamContainer', '').replace(': StartedPubstreamContainer', '').replace(/\/\/ @ts-expect-error.*\n.*\n$/, '');
    writeFileSync(join(project, 'usage.mjs'), javascript);
    const { stdout } = await run(process.execPath, ['usage.mjs'], {
      cwd: project,
      env: { ...process.env, PUBSTREAM_IMAGE: support.images.pubstream, TESTCONTAINERS_RYUK_DISABLED: 'true' },
      timeout: 180_000,
    });
    expect(JSON.parse(stdout.trim())).toEqual({ data: { title: 'From the tarball' }, key: 'pk_test_' });
  }, 420_000);
});
