import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { KeyType } from '@pubstream/domain';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** `pk_live_` / `pk_test_` + 32 base62 characters (docs/decisions.md, "Keys, admin and dashboard"). */
const API_KEY_PATTERN = /^pk_(live|test)_[0-9A-Za-z]{32}$/;

export const keyPrefix = (type: KeyType): string => `pk_${type}_`;

/** A new random key; the caller shows it once and stores only its hash. */
export const generateApiKey = (type: KeyType): string => {
  let body = '';
  for (let i = 0; i < 32; i++) body += BASE62[randomInt(62)];
  return keyPrefix(type) + body;
};

/** SHA-256 hex of the key: the only form in which a key is stored or looked up. */
export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** The type a well-formed key claims by its prefix, or null for anything malformed. */
export const parseApiKeyType = (key: string): KeyType | null => {
  const match = API_KEY_PATTERN.exec(key);
  return match ? (match[1] as KeyType) : null;
};

/** `pk_live_…abcd`: how a key is shown after creation. */
export const maskApiKey = (type: KeyType, last4: string): string => `${keyPrefix(type)}…${last4}`;

/** Constant-time comparison for secrets such as the admin token. */
export const secretsEqual = (a: string, b: string): boolean => {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right);
};
