/** The paths the dashboard owns (after path normalisation, case-sensitive): `/`, `/dashboard`, `/dashboard/*`. */
export const isDashboardPath = (path: string): boolean => path === '/' || path === '/dashboard' || path.startsWith('/dashboard/');

const PUBLIC_PAGES = new Set(['/', '/dashboard', '/dashboard/sign-in', '/dashboard/favicon.svg']);

/**
 * The dashboard requests that need no session: the redirects to it, the sign-in form (and its
 * post) and the icon. Every other dashboard request is checked at the dashboard's entrance, so a
 * page added later is protected without a check of its own (docs/security.md).
 */
export const isPublicDashboardRequest = (method: string, path: string): boolean => {
  if (method === 'GET' || method === 'HEAD') return PUBLIC_PAGES.has(path);
  return method === 'POST' && path === '/dashboard/sign-in';
};
