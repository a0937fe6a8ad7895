import { ConfigError, loadConfig, type Config, type ProcessRole } from '@pubstream/config';
import { createAdminClient, type AdminClient } from '../adminClient.js';
import { CliError } from './cliError.js';

/** The configuration of a command's process; a bad one is a usage error (exit code 2). */
export const configFor = (role: ProcessRole): Config => {
  try {
    return loadConfig(process.env, role);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message, 2);
    throw error;
  }
};

/** A client of the running admin API, for the tool commands (import, keys). */
export const adminClientFromEnv = (): AdminClient => {
  const config = configFor('tool');
  if (config.adminToken === null) throw new CliError('ADMIN_TOKEN is required to talk to the admin API (the token "pubstream start" printed, or the one you configured)', 2);
  return createAdminClient(config.adminUrl, config.adminToken);
};

/** Writes a command's result as indented JSON to stdout. */
export const printJson = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
};
