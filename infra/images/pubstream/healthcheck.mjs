// The image's HEALTHCHECK: is the server of this container's command alive? `start` and `api`
// serve the public port, `admin` the admin port, `projector` its health and metrics port
// (PROJECTOR_PORT on ADMIN_HOST); each answers GET /healthz without a key or token.
// Any HTTP answer below 500 counts: a 421 (a Host name outside ADMIN_ALLOWED_HOSTS) still shows a
// live server. Bounded at 4 s, under the HEALTHCHECK timeout.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';

const args = readFileSync('/proc/1/cmdline', 'utf8').split('\0');
const role = ['start', 'api', 'admin', 'projector'].find((name) => args.includes(name)) ?? 'start';
const ports = { admin: process.env.ADMIN_PORT ?? '8081', projector: process.env.PROJECTOR_PORT ?? '8082' };
const port = ports[role] ?? process.env.PORT ?? '8080';

const req = request({ host: '127.0.0.1', port: Number(port), path: '/healthz', timeout: 4_000 }, (res) => {
  res.resume();
  process.exit((res.statusCode ?? 500) < 500 ? 0 : 1);
});
req.on('timeout', () => req.destroy(new Error('timeout')));
req.on('error', (error) => {
  console.error(`healthcheck: ${role} on port ${port}: ${error.message}`);
  process.exit(1);
});
req.end();
