import { isAbsolute, join, resolve } from 'node:path';

export type EventStoreLocation =
  | { readonly kind: 'sqlite'; readonly url: string; /** Absolute file path, or `:memory:`. */ readonly path: string }
  | { readonly kind: 'esdb'; readonly url: string; readonly connectionString: string };

/**
 * `sqlite:./data/events.db` (relative to the working directory), `sqlite:/abs/path.db`,
 * `sqlite::memory:`, or an EventStoreDB / KurrentDB connection string (`esdb://`, `esdb+discover://`,
 * `kurrentdb://`, `kdb://`). Unset means `sqlite:` in DATA_DIR. Returns null for anything else.
 */
export const parseEventStoreUrl = (url: string | undefined, dataDir: string, cwd: string): EventStoreLocation | null => {
  if (url === undefined) {
    const path = resolve(cwd, join(dataDir, 'events.db'));
    return { kind: 'sqlite', url: `sqlite:${path}`, path };
  }
  if (url.startsWith('sqlite:')) {
    const rest = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (rest === '') return null;
    if (rest === ':memory:') return { kind: 'sqlite', url, path: ':memory:' };
    return { kind: 'sqlite', url, path: isAbsolute(rest) ? rest : resolve(cwd, rest) };
  }
  if (/^(esdb|esdb\+discover|kurrentdb|kurrentdb\+discover|kdb|kdb\+discover):\/\/\S+$/.test(url)) {
    return { kind: 'esdb', url, connectionString: url };
  }
  return null;
};
