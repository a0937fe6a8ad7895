// The HTTP edge shared by the public API and the admin API: error rendering, the request body
// layer, path normalisation, the node:http server settings (docs/security.md), readiness and the
// graceful drain of connections (docs/operations.md).
export * from './boundedLines.js';
export * from './clientError.js';
export * from './connectionDrain.js';
export * from './connectionGate.js';
export * from './connectionLimit.js';
export * from './contentCoding.js';
export * from './decodedBody.js';
export * from './describeFailure.js';
export * from './drainSignal.js';
export * from './echoInput.js';
export * from './edgeServer.js';
export * from './errorMiddleware.js';
export * from './normalizePath.js';
export * from './normalizePathMiddleware.js';
export * from './parseJsonText.js';
export * from './rawJsonResponse.js';
export * from './readiness.js';
export * from './readJsonBody.js';
export * from './requestContext.js';
export * from './requestMetrics.js';
export * from './statusName.js';
export * from './zodBody.js';
export * from './openapi/apiReference.js';
export * from './openapi/buildOpenApiDocument.js';
export * from './openapi/errorBodySchema.js';
export * from './openapi/jsonSchemaOf.js';
export * from './openapi/mountRoute.js';
export * from './openapi/operationsContracts.js';
export * from './openapi/routeContract.js';
