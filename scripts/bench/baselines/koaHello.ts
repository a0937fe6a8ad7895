// Baseline: Koa + @koa/router answering a constant, the framework floor of the public API.
import Router from '@koa/router';
import Koa from 'koa';

const app = new Koa();
const router = new Router();
router.get('/hello', (ctx) => {
  ctx.body = { hello: 'world' };
});
app.use(router.routes());
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`LISTENING ${address.port}`);
});
