import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Middleware } from 'koa';

/** Where the reference page, its renderer and the document are served, on both ports. */
export const API_REFERENCE_PATHS = { document: '/openapi.json', page: '/docs', renderer: '/docs/redoc.standalone.js' } as const;

/**
 * The page's Content-Security-Policy: scripts only from this origin (the renderer, no inline
 * script: Redoc starts by itself on the `<redoc spec-url>` element), the document fetched from
 * this origin, nothing from anywhere else. Redoc writes its styles at run time (styled-components)
 * and runs its search index in a blob worker, hence `'unsafe-inline'` styles and `blob:` workers.
 * Its sidebar links a logo from its CDN: refused here (the image hides itself), so nothing leaves.
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src blob:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const SERVED_PATHS: ReadonlySet<string> = new Set(Object.values(API_REFERENCE_PATHS));

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const pageHtml = (title: string): string =>
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
</head>
<body>
<redoc spec-url="${API_REFERENCE_PATHS.document}" hide-download-button="false" path-in-middle-panel="true" required-props-first="true"></redoc>
<script src="${API_REFERENCE_PATHS.renderer}"></script>
</body>
</html>
`;

/** Loaded once, on first use: the renderer is a megabyte that most processes never serve. */
const rendererLoader = (): (() => Buffer) => {
  let bundle: Buffer | undefined;
  return () => (bundle ??= readFileSync(createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js')));
};

/**
 * `GET|HEAD /openapi.json`, `/docs` (a reference page) and the page's renderer (Redoc's
 * standalone bundle from node_modules: no CDN). Public on both ports (docs/decisions.md,
 * "OpenAPI from the code"). The document is serialized once.
 */
export const apiReference = (options: { readonly document: Readonly<Record<string, unknown>>; readonly title: string }): Middleware => {
  const documentJson = JSON.stringify(options.document);
  const page = pageHtml(options.title);
  const renderer = rendererLoader();
  return async function serveApiReference(ctx, next) {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      if (!SERVED_PATHS.has(ctx.path)) return next();
      // As the router answers its own routes: OPTIONS lists the methods (the error middleware
      // makes it 204), any other method is 405 with Allow (docs/public-api.md, Errors).
      ctx.set('Allow', 'HEAD, GET');
      ctx.status = ctx.method === 'OPTIONS' ? 200 : 405;
      return;
    }
    if (ctx.path === API_REFERENCE_PATHS.document) {
      ctx.type = 'application/json';
      ctx.body = documentJson;
    } else if (ctx.path === API_REFERENCE_PATHS.page) {
      ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Referrer-Policy', 'no-referrer');
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = page;
    } else if (ctx.path === API_REFERENCE_PATHS.renderer) {
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.body = renderer();
    } else {
      return next();
    }
  };
};
