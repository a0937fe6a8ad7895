import { describe, expect, it } from 'vitest';
import { parseKeyForm } from './keyForm.js';

const form = (fields: Record<string, string>) => new URLSearchParams({ name: 'Site', type: 'live', domains: '', rateLimit: '', ...fields });

describe('parseKeyForm', () => {
  it('normalizes the comma-separated domains, drops duplicates and empty entries, blank rate limit means the default', () => {
    const result = parseKeyForm(form({ domains: ' Example.com, *.example.com,, example.com ,bücher.de' }), 100);
    expect(result).toMatchObject({ ok: true, input: { name: 'Site', type: 'live', allowedDomains: ['example.com', '*.example.com', 'xn--bcher-kva.de'], rateLimit: undefined } });
  });

  it('names every bad domain entry in its own message', () => {
    const result = parseKeyForm(form({ domains: 'ok.com, http://a.com, a.com:8080, *.com, x y' }), 100);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.domains).toHaveLength(4);
    expect(result.errors.domains?.[0]).toContain('"http://a.com"');
    expect(result.errors.domains?.[1]).toContain('ports');
    expect(result.errors.domains?.[2]).toContain('"*.com"');
    expect(result.errors.domains?.[3]).toContain('"x y"');
    expect(result.values.domains).toBe('ok.com, http://a.com, a.com:8080, *.com, x y');
  });

  it('bounds the rate limit by the plan maximum and refuses non-integers', () => {
    expect(parseKeyForm(form({ rateLimit: '100' }), 100)).toMatchObject({ ok: true, input: { rateLimit: 100 } });
    for (const [value, message] of [
      ['101', 'at most 100'],
      ['0', 'at least 1'],
      ['1.5', 'whole number'],
      ['-3', 'whole number'],
      ['ten', 'whole number'],
    ] as const) {
      const result = parseKeyForm(form({ rateLimit: value }), 100);
      expect(result.ok ? null : result.errors.rateLimit).toContain(message);
    }
  });

  it('requires a name and a known type', () => {
    const result = parseKeyForm(form({ name: '  ', type: 'prod' }), 100);
    expect(result.ok ? null : Object.keys(result.errors).sort()).toEqual(['name', 'type']);
  });
});
