import { isPubstreamError, type KeyType } from '@pubstream/domain';
import { MAX_ALLOWED_DOMAINS, normalizeDomainEntry } from '../allowedDomains.js';

/** What the operator typed, echoed back into the form when something is wrong. */
export interface KeyFormValues {
  readonly name: string;
  readonly type: string;
  readonly domains: string;
  readonly rateLimit: string;
}

export interface KeyFormErrors {
  name?: string;
  type?: string;
  /** One message per bad entry, so every mistake shows at once. */
  domains?: string[];
  rateLimit?: string;
}

export interface KeyInput {
  readonly name: string;
  readonly type: KeyType;
  readonly allowedDomains: string[];
  /** Undefined: the plan's default. */
  readonly rateLimit: number | undefined;
}

export type KeyFormResult = { readonly ok: true; readonly values: KeyFormValues; readonly input: KeyInput } | { readonly ok: false; readonly values: KeyFormValues; readonly errors: KeyFormErrors };

export const emptyKeyForm: KeyFormValues = { name: '', type: 'live', domains: '', rateLimit: '' };

/**
 * Validates the create/edit key form: name, type, the comma-separated domains entry by entry, and
 * the rate limit between 1 and the plan's maximum (blank means the plan's default).
 */
export const parseKeyForm = (form: URLSearchParams, maxRateLimit: number): KeyFormResult => {
  const values: KeyFormValues = {
    name: form.get('name') ?? '',
    type: form.get('type') ?? '',
    domains: form.get('domains') ?? '',
    rateLimit: (form.get('rateLimit') ?? '').trim(),
  };
  const errors: KeyFormErrors = {};
  const name = values.name.trim();
  if (name === '') errors.name = 'Enter a name, e.g. "Website production".';
  else if (name.length > 200) errors.name = 'The name must be at most 200 characters.';
  if (values.type !== 'live' && values.type !== 'test') errors.type = 'Choose live or test.';

  const domains: string[] = [];
  const domainErrors: string[] = [];
  for (const entry of values.domains.split(',').map((part) => part.trim()).filter((part) => part !== '')) {
    try {
      const normalized = normalizeDomainEntry(entry);
      if (!domains.includes(normalized)) domains.push(normalized);
    } catch (error) {
      domainErrors.push(isPubstreamError(error) ? `${error.message}.` : `Invalid allowed domain "${entry}".`);
    }
  }
  if (domains.length > MAX_ALLOWED_DOMAINS) domainErrors.push(`At most ${MAX_ALLOWED_DOMAINS} allowed domains per key.`);
  if (domainErrors.length > 0) errors.domains = domainErrors;

  let rateLimit: number | undefined;
  if (values.rateLimit !== '') {
    rateLimit = Number(values.rateLimit);
    if (!/^\d+$/.test(values.rateLimit) || !Number.isSafeInteger(rateLimit) || rateLimit < 1) errors.rateLimit = 'Enter a whole number of requests, at least 1.';
    else if (rateLimit > maxRateLimit) errors.rateLimit = `Your plan allows at most ${maxRateLimit.toLocaleString('en-US')} requests per window.`;
  }

  if (Object.keys(errors).length > 0) return { ok: false, values, errors };
  return { ok: true, values, input: { name, type: values.type as KeyType, allowedDomains: domains, rateLimit } };
};
