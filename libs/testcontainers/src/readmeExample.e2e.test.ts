// The README's vitest example is code that runs: it is cut out of README.md verbatim and run by a
// vitest of its own against the image this run built (PUBSTREAM_IMAGE, default pubstream:local),
// so what a user copies is what passes here: start, read with the client, create an item through
// the admin API, receive it live, stop.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { describeWithContainers } from '@pubstream/testing';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const scratch = join(repo, '.tmp', `testcontainers-readme-${process.pid}`);

/** The first ```ts block after a heading of the README. */
const exampleAfter = (heading: string): string => {
  const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
  const match = /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf(`\n${heading}\n`)));
  if (!match?.[1]) throw new Error(`no ts example after ${heading}`);
  return match[1];
};

const withoutColor = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => Object.fromEntries(Object.entries(env).filter(([name]) => name !== 'FORCE_COLOR'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describeWithContainers('@pubstream/testcontainers: the README example', ['pubstream'], (support) => {
  it('passes as written, in a vitest of its own', async () => {
    mkdirSync(scratch, { recursive: true });
    writeFileSync(join(scratch, 'readme.test.ts'), exampleAfter('## Example (vitest)'));
    writeFileSync(join(scratch, 'vitest.config.mjs'), "export default { test: { include: ['readme.test.ts'], testTimeout: 60000 } };\n");
    const vitest = join(repo, 'node_modules', 'vitest', 'vitest.mjs');
    const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) => {
      execFile(
        process.execPath,
        [vitest, 'run', '--root', scratch, '--config', join(scratch, 'vitest.config.mjs'), '--reporter', 'verbose'],
        { cwd: scratch, env: { ...withoutColor(process.env), NO_COLOR: '1', PUBSTREAM_IMAGE: support.images.pubstream, TESTCONTAINERS_RYUK_DISABLED: 'true' }, timeout: 240_000 },
        (error, out, err) => (error ? reject(new Error(`the README example failed:\n${out}\n${err}`)) : resolve({ stdout: out })),
      );
    });
    expect(stdout).toMatch(/✓ .*reads the collection with the client/);
    expect(stdout).toMatch(/✓ .*receives an item created through the admin API, live/);
    expect(stdout).toMatch(/Tests\s+2 passed \(2\)/);
  }, 300_000);
});
