import { describe, expect, it } from 'vitest';
import { COLLECTION_KEYS_LUA, generationPointerKey, generationScanPatterns, hashTagOf, newGenerationNamespace, pendingGenerationKey, redisKeys, sharedUnderRoot } from './redisKeys.js';

// Renaming a key orphans every record stored under the old name: these are the names of the
// table in docs/read-models.md, spelled out.
describe('redis key names', () => {
  const key = redisKeys('ps');

  it('are the documented ones', () => {
    expect([key.item('d1'), key.itemVersion('d1'), key.collectionRecord('books'), key.collectionItems('books'), key.collectionPrefix('books')]).toEqual([
      'ps:{i:d1}',
      'ps:{i:d1}:v',
      'ps:{c:books}:rec',
      'ps:{c:books}:items',
      'ps:{c:books}:',
    ]);
    expect([key.collectionList, key.collectionListVersions, key.keyByHash('h'), key.keyByHashVersion('h'), key.keyList, key.keyListVersions]).toEqual([
      'ps:{cl}',
      'ps:{cl}:v',
      'ps:{k:h}',
      'ps:{k:h}:v',
      'ps:{kl}',
      'ps:{kl}:v',
    ]);
    expect([key.plan, key.planVersion, key.checkpoints, key.lease('projector'), key.leaseTokens('projector')]).toEqual([
      'ps:{m}:plan',
      'ps:{m}:plan:v',
      'ps:{m}:cp',
      'ps:{m}:lease:projector',
      'ps:{m}:lease:projector:seq',
    ]);
    expect([key.usage('k1'), key.usageHours('k1', '2026-01-02'), key.usageDays('k1'), key.usageMonths('k1')]).toEqual([
      'ps:{u:k1}',
      'ps:{u:k1}:h:2026-01-02',
      'ps:{u:k1}:d',
      'ps:{u:k1}:mo',
    ]);
    expect([key.itemHistory('d1'), key.collectionLastChange('books'), key.collectionHistory('books'), key.historyMeta, key.historyTimes]).toEqual([
      'ps:{i:d1}:h',
      'ps:{c:books}:last',
      'ps:{c:books}:h',
      'ps:{m}:history',
      'ps:{m}:history:t',
    ]);
    expect([generationPointerKey('ps'), pendingGenerationKey('ps'), newGenerationNamespace('ps', new Date(1_700_000_000_000))]).toEqual([
      'ps:{m}:generation',
      'ps:{m}:generation:pending',
      'ps-g1700000000000',
    ]);
  });

  it('name a collection the same way in the Lua scripts as in TypeScript', () => {
    const suffix = (fn: string): string => {
      const match = new RegExp(`local function ${fn}\\(P(?:, field)?\\) return P \\.\\. '([^']*)'`).exec(COLLECTION_KEYS_LUA);
      if (!match) throw new Error(`${fn} missing from COLLECTION_KEYS_LUA`);
      return match[1] as string;
    };
    const prefix = key.collectionPrefix('books');
    expect(prefix + suffix('recordKey')).toBe(key.collectionRecord('books'));
    expect(prefix + suffix('itemsKey')).toBe(key.collectionItems('books'));
    expect(prefix + suffix('lastChangeKey')).toBe(key.collectionLastChange('books'));
    expect(prefix + suffix('historyKey')).toBe(key.collectionHistory('books'));
    expect([suffix('versionKey'), suffix('itemVersionsKey'), suffix('sortedKey'), suffix('missingKey')]).toEqual(['v', 'ver', 'z:', 'm:']);
  });

  it('keep every key of one record, collection or usage counter in one hash tag', () => {
    expect(new Set([key.item('d'), key.itemVersion('d'), key.itemHistory('d')].map(hashTagOf))).toEqual(new Set(['i:d']));
    expect(new Set([key.collectionRecord('c'), key.collectionItems('c'), key.collectionPrefix('c'), key.collectionLastChange('c'), key.collectionHistory('c')].map(hashTagOf))).toEqual(new Set(['c:c']));
    expect(new Set([key.checkpoints, key.historyMeta, key.historyTimes].map(hashTagOf))).toEqual(new Set(['m']));
    expect(new Set([key.usage('k'), key.usageHours('k', '2026-01-01'), key.usageDays('k'), key.usageMonths('k')].map(hashTagOf))).toEqual(new Set(['u:k']));
    expect(hashTagOf('plain')).toBe('plain');
    expect(hashTagOf('a:{}:b')).toBe('a:{}:b');
  });

  it('tell what a rebuild of the root may drop and where generations live', () => {
    expect(sharedUnderRoot('ps', 'ps:{u:k1}:d')).toBe(true);
    expect(sharedUnderRoot('ps', 'ps:{m}:generation')).toBe(true);
    expect(sharedUnderRoot('ps', 'ps:rl:203.0.113.9')).toBe(true);
    expect(sharedUnderRoot('ps', 'ps:{i:d1}')).toBe(false);
    expect(sharedUnderRoot('ps', 'ps:{m}:cp')).toBe(false);
    expect(generationScanPatterns('p*s')).toEqual(['p\\*s:[{]*', 'p\\*s-g*:*']);
  });
});
