import { readFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { CliError } from './cliError.js';
import { adminClientFromEnv, printJson } from './commandConfig.js';

/** `pubstream import` and `pubstream keys …`: tools that call a running admin API. */
export const registerAdminToolCommands = (program: Command): void => {
  program
    .command('import')
    .description('import an NDJSON file ({"dataId": ..., "data": {...}} per line) into a collection through the admin API')
    .argument('<slug>', 'collection slug')
    .argument('<file>', 'NDJSON file')
    .action(async (slug: string, file: string) => {
      try {
        readFileSync(file, { flag: 'r' }).subarray(0, 0);
      } catch {
        throw new CliError(`Cannot read ${file}`, 2);
      }
      const summary = (await adminClientFromEnv().importFile(slug, file)) as { failed: number };
      printJson(summary);
      if (summary.failed > 0) process.exitCode = 1;
    });

  const keys = program.command('keys').description('manage API keys through the admin API');
  keys
    .command('create')
    .requiredOption('--name <name>', 'descriptive label')
    .addOption(new Option('--type <type>', 'key type').choices(['live', 'test']).default('test'))
    .option('--domains <list>', 'comma-separated allowed domains (host names or *.wildcards)', '')
    .option('--rate-limit <n>', 'requests per window (default: the plan default)', (value) => Number.parseInt(value, 10))
    .action(async (options: { name: string; type: string; domains: string; rateLimit?: number }) => {
      const json = { name: options.name, type: options.type, allowedDomains: options.domains, rateLimit: options.rateLimit };
      printJson(await adminClientFromEnv().request('POST', '/admin/keys', { json }));
    });
  keys.command('list').action(async () => {
    printJson(await adminClientFromEnv().request('GET', '/admin/keys'));
  });
  keys
    .command('delete')
    .argument('<keyId>')
    .action(async (keyId: string) => {
      await adminClientFromEnv().request('DELETE', `/admin/keys/${encodeURIComponent(keyId)}`);
      process.stdout.write(`deleted ${keyId}\n`);
    });
};
