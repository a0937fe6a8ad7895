// Writes the OpenAPI documents both APIs serve to docs/openapi/, where a change of a route or a
// schema shows in review (the unit tests fail until this is run: docs/testing.md, "Contract").
// Run: npm run openapi
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { adminOpenApiDocument } from '@pubstream/admin';
import { publicOpenApiDocument } from '@pubstream/api';

const write = (name: string, document: unknown): void => {
  const path = fileURLToPath(new URL(`../docs/openapi/${name}`, import.meta.url));
  writeFileSync(path, `${JSON.stringify(document, null, 2)}\n`);
  console.log(`wrote ${path}`);
};

write('public-api.json', publicOpenApiDocument());
write('admin-api.json', adminOpenApiDocument());
