import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { AdminService } from '../adminService.js';
import type { NewKeyView } from '../keyUseCases.js';
import { redirectTo, renderPage } from './dashboardResponses.js';
import { sessionOf } from './dashboardState.js';
import { flashOutcome } from './flashOutcome.js';
import { guardedForm } from './formGuard.js';
import { emptyKeyForm, parseKeyForm, type KeyFormErrors, type KeyFormValues } from './keyForm.js';
import { keyDeletePage, keyEditPage, keysPage } from './keysPage.js';
import type { Flash, SessionStore } from './sessionStore.js';

export interface KeyPageDeps {
  readonly service: Pick<AdminService, 'listKeys' | 'getKey' | 'getPlan' | 'createKey' | 'updateKey' | 'deleteKey'>;
  readonly sessions: Pick<SessionStore, 'takeFlash'>;
}

/** The message after a creation: the key itself, shown once (docs/dashboard.md), unless none can be shown. */
const createdKeyFlash = (created: NewKeyView): Flash =>
  created.key === null ? { kind: 'notice', message: `Key "${created.name}" was created.` } : { kind: 'created', key: created.key, name: created.name, keyId: created.keyId };

const keyIdOf = (ctx: RouterContext): string => ctx.params.keyId ?? '';

const showKeys = async (deps: KeyPageDeps, ctx: RouterContext, status: number, values: KeyFormValues, errors: KeyFormErrors) => {
  const session = sessionOf(ctx);
  const [keys, plan] = await Promise.all([deps.service.listKeys(), deps.service.getPlan()]);
  renderPage(ctx, status, 'API keys', keysPage({ keys, plan, flash: deps.sessions.takeFlash(session), csrfToken: session.csrfToken, values, errors }), 'keys');
};

const createKey = async (deps: KeyPageDeps, ctx: RouterContext) => {
  const guarded = await guardedForm(ctx);
  if (!guarded) return;
  const plan = await deps.service.getPlan();
  const parsed = parseKeyForm(guarded.form, plan.limits.maxRateLimit);
  if (!parsed.ok) return showKeys(deps, ctx, 422, parsed.values, parsed.errors);
  const { name, type, allowedDomains, rateLimit } = parsed.input;
  guarded.session.flash = await flashOutcome(async () => createdKeyFlash((await deps.service.createKey({ name, type, allowedDomains, rateLimit })).value));
  redirectTo(ctx, '/dashboard/keys#new-key');
};

const showKeyEdit = async (deps: KeyPageDeps, ctx: RouterContext) => {
  const session = sessionOf(ctx);
  const [key, plan] = await Promise.all([deps.service.getKey(keyIdOf(ctx)), deps.service.getPlan()]);
  const values: KeyFormValues = { name: key.name, type: key.type, domains: key.allowedDomains.join(', '), rateLimit: String(key.rateLimit) };
  renderPage(ctx, 200, `Edit ${key.name}`, keyEditPage({ key, plan, csrfToken: session.csrfToken, values, errors: {} }), 'keys');
};

const saveKeyEdit = async (deps: KeyPageDeps, ctx: RouterContext) => {
  const guarded = await guardedForm(ctx);
  if (!guarded) return;
  const [key, plan] = await Promise.all([deps.service.getKey(keyIdOf(ctx)), deps.service.getPlan()]);
  // The type of a key cannot change: the form shows it, the update keeps it.
  guarded.form.set('type', key.type);
  const parsed = parseKeyForm(guarded.form, plan.limits.maxRateLimit);
  if (!parsed.ok) {
    return renderPage(ctx, 422, `Edit ${key.name}`, keyEditPage({ key, plan, csrfToken: guarded.session.csrfToken, values: parsed.values, errors: parsed.errors }), 'keys');
  }
  const { name, allowedDomains } = parsed.input;
  const rateLimit = parsed.input.rateLimit ?? plan.limits.defaultRateLimit;
  guarded.session.flash = await flashOutcome(async () => {
    await deps.service.updateKey(key.keyId, { name, allowedDomains, rateLimit });
    return { kind: 'notice', message: `Key "${name}" was saved.` };
  });
  redirectTo(ctx, '/dashboard/keys');
};

const confirmKeyDelete = async (deps: KeyPageDeps, ctx: RouterContext) => {
  const session = sessionOf(ctx);
  const key = await deps.service.getKey(keyIdOf(ctx));
  renderPage(ctx, 200, `Delete ${key.name}`, keyDeletePage({ key, csrfToken: session.csrfToken }), 'keys');
};

const deleteKey = async (deps: KeyPageDeps, ctx: RouterContext) => {
  const guarded = await guardedForm(ctx);
  if (!guarded) return;
  const key = await deps.service.getKey(keyIdOf(ctx));
  // deleteKey returns after the projector applied it: the key is refused from now on.
  await deps.service.deleteKey(key.keyId);
  guarded.session.flash = { kind: 'notice', message: `Key "${key.name}" (${key.maskedKey}) was deleted; requests with it now get 401.` };
  redirectTo(ctx, '/dashboard/keys');
};

/** The keys pages: the list with the create form, edit, and delete with confirmation. */
export const keyRoutes = (router: Router, deps: KeyPageDeps): void => {
  router.get('/dashboard/keys', (ctx) => showKeys(deps, ctx, 200, emptyKeyForm, {}));
  router.post('/dashboard/keys', (ctx) => createKey(deps, ctx));
  router.get('/dashboard/keys/:keyId', (ctx) => showKeyEdit(deps, ctx));
  router.post('/dashboard/keys/:keyId', (ctx) => saveKeyEdit(deps, ctx));
  router.get('/dashboard/keys/:keyId/delete', (ctx) => confirmKeyDelete(deps, ctx));
  router.post('/dashboard/keys/:keyId/delete', (ctx) => deleteKey(deps, ctx));
};
