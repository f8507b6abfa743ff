// `npx tsx scripts/unmountedClientRoutes.ts [routes.tsv]`: which routes real clients call
// (docs/client-routes.tsv: METHOD, PATH, ...) Chorus does not mount. Starts an embedded node, calls every
// route once with a fresh user's token and placeholder ids, and lists those answered with the
// unknown-route 404 (`code: 0`) or a 5xx. CDN paths with made-up ids also 404 with code 0: read those
// rows knowing the ids are fake.
import { readFileSync } from 'node:fs';
import { registerUser, startTestServer } from '../test/support/testServer.js';

const PLACEHOLDER_ID = '1234567890123456789';

function samplePath(path: string): string {
  return path.replace(/:[a-z_]+/g, (param) => {
    if (param.includes('code') || param.includes('token')) return 'abc';
    if (param.includes('emoji')) return '%F0%9F%91%8D';
    return PLACEHOLDER_ID;
  });
}

const file = process.argv[2] ?? new URL('../docs/client-routes.tsv', import.meta.url).pathname;
const routes = readFileSync(file, 'utf8').trim().split('\n').slice(1);
const server = await startTestServer();
try {
  const root = server.api.replace(/\/api\/v10$/, '');
  const { token } = await registerUser(server.api, 'probe');
  const unmounted: string[] = [];
  for (const line of routes) {
    const [method = 'GET', path = '/'] = line.split('\t');
    const response = await fetch(root + samplePath(path), {
      method,
      headers: { authorization: token, 'content-type': 'application/json' },
      ...(method === 'GET' || method === 'HEAD' ? {} : { body: '{}' }),
    });
    const text = await response.text();
    if (response.status >= 500 || (response.status === 404 && text.includes('"code":0'))) {
      unmounted.push(`${response.status} ${method} ${path}`);
    }
  }
  process.stdout.write(
    `${unmounted.length} of ${routes.length} routes unmounted or failing:\n${unmounted.join('\n')}\n`,
  );
} finally {
  await server.stop();
}
