import { it } from 'vitest';
import { createTestApp } from './test/app';
import { makeSession } from './test/factories';
it('probe', async () => {
  const t = await createTestApp({ startWorker: false });
  console.log(t.app.routeTable.map((r) => `${r.method} ${r.url} ${r.isPublic}`).join('\n'));
  const { cookie } = await makeSession(t.app, t.database.db);
  for (const [m, u] of [['POST','/api/users'],['PUT','/api/users/x'],['POST','/api/auth/2fa/x'],['PUT','/api/auth/2fa/x/disable'],['POST','/api/auth/login']]) for (const b of ['[]','null','"x"']) {
    const r = await t.app.inject({ method: m as any, url: u, headers: { cookie, 'content-type': 'application/json' }, payload: b });
    console.log(m, u, b, r.statusCode, r.body);
  }
  const r = await t.app.inject({ method: 'POST', url: '/api/users', headers: { cookie }, payload: 'a=b', });
  console.log('form', r.statusCode, r.body);
  const r2 = await t.app.inject({ method: 'POST', url: '/api/users', headers: { cookie, 'content-type': 'text/plain' }, payload: 'a=b', });
  console.log('text', r2.statusCode, r2.body);
  const r3 = await t.app.inject({ method: 'POST', url: '/api/users', headers: { cookie, 'content-type': 'application/json' }, payload: '' });
  console.log('empty', r3.statusCode, r3.body);
  const r4 = await t.app.inject({ method: 'POST', url: '/api/users', headers: { cookie, 'content-type': 'application/json' }, payload: '{"__proto__": {"x": 1}}' });
  console.log('proto', r4.statusCode, r4.body);
  await t.close();
});
