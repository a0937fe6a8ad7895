import { ForbiddenError, UnauthorizedError } from '@pubstream/domain';
import type { KeyRecord } from '@pubstream/read-model';
import { parseApiKeyType } from './apiKeys.js';
import { isDomainAllowed } from './domainWhitelist.js';
import { createKeyHashMemo } from './keyHashMemo.js';
import { requestingDomain } from './requestingDomain.js';

export interface AccessRequest {
  /** `X-API-Key` header, or the `apiKey` query parameter on /subscribe. */
  readonly apiKey: string | undefined;
  readonly origin?: string | undefined;
  readonly referer?: string | undefined;
}

export interface AccessGrant {
  readonly key: KeyRecord;
  /**
   * The request's Origin when the key allows it: the value for Access-Control-Allow-Origin.
   * Null when there is no Origin header (server-side fetch, or a domain taken from Referer).
   */
  readonly corsOrigin: string | null;
}

export interface AccessDeps {
  /** Key record by SHA-256 hash, null when unknown or deleted (usually a KeyCache's `get`). */
  readonly getKey: (keyHash: string) => Promise<KeyRecord | null>;
  /** false: test keys get 401 (ACCEPT_TEST_KEYS; docs/decisions.md, "Public interface"). */
  readonly acceptTestKeys: boolean;
  /** true: live keys refuse requests that present no domain (REQUIRE_BROWSER_ORIGIN; docs/decisions.md, "Requesting domain"). */
  readonly requireBrowserOrigin: boolean;
}

// Only well-formed keys reach it (checked below), so it holds at most 10,000 plausible keys.
const hashOfKey = createKeyHashMemo();

/**
 * Checks an API key and the requesting domain (specification, Authentication; docs/public-api.md, "Keys and domains").
 * Throws UnauthorizedError (401 `Invalid API key`) for a missing, malformed, unknown or deleted
 * key and for a test key where test keys are refused; ForbiddenError (403 `Domain not allowed
 * for this API key`) when the domain is not whitelisted or cannot be determined.
 */
export const authorizeKey = async (request: AccessRequest, deps: AccessDeps): Promise<AccessGrant> => {
  const { apiKey } = request;
  if (typeof apiKey !== 'string') throw new UnauthorizedError();
  const type = parseApiKeyType(apiKey);
  if (type === null) throw new UnauthorizedError();
  if (type === 'test' && !deps.acceptTestKeys) throw new UnauthorizedError();

  const key = await deps.getKey(hashOfKey(apiKey));
  if (key === null || key.type !== type) throw new UnauthorizedError();

  const domain = requestingDomain({ origin: request.origin, referer: request.referer });
  switch (domain.kind) {
    case 'none':
      if (deps.requireBrowserOrigin && key.type === 'live') throw new ForbiddenError();
      return { key, corsOrigin: null };
    case 'invalid':
      throw new ForbiddenError();
    case 'host':
      if (!isDomainAllowed(domain.host, key.allowedDomains, key.type)) throw new ForbiddenError();
      return { key, corsOrigin: domain.origin };
  }
};
