// The HTTP edge shared by the public API and the admin API: error rendering, the request body
// layer, path normalisation and the node:http server settings (docs/security.md).
export * from './normalizePath.js';
export * from './normalizePathMiddleware.js';
