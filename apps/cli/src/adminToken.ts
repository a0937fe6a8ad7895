import { randomBytes } from 'node:crypto';

/** A fresh admin token for development runs without ADMIN_TOKEN (printed once, never stored). */
export const generateAdminToken = (): string => `adm_${randomBytes(24).toString('base64url')}`;
