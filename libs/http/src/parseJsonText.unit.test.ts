import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds, parseJsonText } from './parseJsonText.js';

const parse = (text: string) => parseJsonText(text, { malformed: 'Malformed' });
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('jsonDepthExceeds', () => {
  it('counts objects and arrays, not brackets inside strings', () => {
    expect(jsonDepthExceeds(nested(64), 64)).toBe(false);
    expect(jsonDepthExceeds(nested(65), 64)).toBe(true);
    expect(jsonDepthExceeds('{"a":{"b":[1]}}', 3)).toBe(false);
    expect(jsonDepthExceeds('{"a":{"b":[1]}}', 2)).toBe(true);
    expect(jsonDepthExceeds(`{"s":"${'['.repeat(500)}"}`, 1)).toBe(false);
    expect(jsonDepthExceeds(`{"s":"\\"${'{'.repeat(500)}"}`, 1)).toBe(false);
  });

  it('agrees with the real depth of any JSON value', () => {
    const depthOf = (value: unknown): number =>
      typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 7 }), (value, limit) => {
        expect(jsonDepthExceeds(JSON.stringify(value), limit)).toBe(depthOf(value) > limit);
      }),
    );
  });
});

describe('parseJsonText', () => {
  it('parses ordinary JSON, keeping constructor and prototype as plain keys', () => {
    expect(parse('{"constructor":"c","prototype":{"p":1},"a":[1,"\\u0041"]}')).toEqual({ constructor: 'c', prototype: { p: 1 }, a: [1, 'A'] });
  });

  it('refuses a 10,000-deep value without overflowing the stack', () => {
    expect(() => parse(nested(10_000))).toThrow(expect.objectContaining({ status: 400, message: 'JSON nested too deeply' }));
    expect(() => parse(`{"a":${nested(63)}}`)).not.toThrow();
    expect(() => parse(`{"a":${nested(64)}}`)).toThrow('JSON nested too deeply');
  });

  it('refuses __proto__ keys at any depth, however they are spelled', () => {
    for (const text of ['{"__proto__":{}}', '{"a":[{"b":{"__proto__":1}}]}', '{"\\u005f_proto__":1}', '{"__pro\\u0074o__":null}']) {
      expect(() => parse(text), text).toThrow(expect.objectContaining({ status: 400, message: 'JSON key "__proto__" is not allowed' }));
    }
    expect(parse('{"a":"__proto__"}')).toEqual({ a: '__proto__' });
    expect(parse('["__proto__"]')).toEqual(['__proto__']);
  });

  it('reports malformed JSON with the caller’s message', () => {
    expect(() => parse('{"a":')).toThrow(expect.objectContaining({ status: 400, message: 'Malformed' }));
    expect(() => parse('')).toThrow('Malformed');
  });
});
