import { ValidationError } from '@pubstream/domain';

/** JSON deeper than this is refused before it is parsed (docs/security.md). */
const MAX_JSON_DEPTH = 64;

const JSON_TOO_DEEP = 'JSON nested too deeply';
const PROTO_KEY_REFUSED = 'JSON key "__proto__" is not allowed';

/**
 * True when brackets nest deeper than `maxDepth` outside strings. One flat pass over the text:
 * nothing here, nor later (JSON.stringify, zod, deep equality), can recurse into a deep value.
 */
export const jsonDepthExceeds = (text: string, maxDepth: number): boolean => {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
};

class ProtoKeyFound extends Error {}

const refuseProtoKey = (key: string, value: unknown): unknown => {
  if (key === '__proto__') throw new ProtoKeyFound();
  return value;
};

/**
 * Parses JSON text from a client (a body, an NDJSON line): 400 `JSON nested too deeply` past
 * `maxDepth`, 400 naming `__proto__` when any object has that key (docs/decisions.md: refused
 * everywhere, while `constructor` and `prototype` are ordinary keys), 400 `malformed` otherwise.
 */
export const parseJsonText = (text: string, options: { malformed: string; maxDepth?: number }): unknown => {
  if (jsonDepthExceeds(text, options.maxDepth ?? MAX_JSON_DEPTH)) throw new ValidationError(JSON_TOO_DEEP);
  // A key can only spell __proto__ literally or with \u escapes; most texts need no reviver.
  const mayHideProto = text.includes('__proto__') || text.includes('\\u');
  try {
    return JSON.parse(text, mayHideProto ? refuseProtoKey : undefined);
  } catch (error) {
    if (error instanceof ProtoKeyFound) throw new ValidationError(PROTO_KEY_REFUSED);
    throw new ValidationError(options.malformed);
  }
};
