import type { AllInOne } from './allInOne.js';

/**
 * What `pubstream start` prints once on stdout (not to the log, so secrets shown once never reach
 * log storage): where things listen, a generated admin token, the demo key and a curl line.
 */
export const startupBanner = (running: AllInOne): string => {
  const lines = ['', 'Pubstream is running (embedded profile: SQLite log, in-memory read models)'];
  if (running.publicUrl !== '') lines.push(`  public API  ${running.publicUrl}${running.apiWorkers > 1 ? ` (${running.apiWorkers} API worker processes)` : ''}`);
  lines.push(`  admin API   ${running.adminUrl}`, `  dashboard   ${running.adminUrl}/`);
  const { location, positionAtStart } = running.eventLog;
  lines.push(`  event log   ${location} ${positionAtStart === 0 ? '(empty: a new log, starting with no data)' : `(head position ${positionAtStart})`}`);
  if (running.adminTokenGenerated) {
    lines.push(`  admin token ${running.adminToken}`, '              (generated for this run and shown only now; set ADMIN_TOKEN to choose your own)');
  }
  if (running.demo) {
    lines.push(
      '',
      `  Demo collection "${running.demo.collection}" created with a test key (shown only once):`,
      `    ${running.demo.key}`,
      '',
      '  Try it:',
      `    curl -H "X-API-Key: ${running.demo.key}" ${running.publicUrl || 'http://127.0.0.1:8080'}/public/collections/${running.demo.collection}/data`,
    );
  }
  lines.push('');
  return lines.join('\n');
};
