export { projectorNodeOptionsFromEnv, DEFAULT_LEASE_TTL_MS, type ProjectorNodeOptions } from './config.js';
export { crashBeforePublish, FAULT_EXIT_CODE } from './crashBeforePublish.js';
export { runProjectorNode } from './projectorNode.js';
