import { expect } from 'vitest';

/** The answer is `status` with a JSON body of exactly `{error, message}`. */
export const expectError = async (res: Response, status: number, error: string, message: string | RegExp): Promise<void> => {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await res.json()) as { error: string; message: string };
  expect(Object.keys(body).sort()).toEqual(['error', 'message']);
  expect(body.error).toBe(error);
  if (typeof message === 'string') expect(body.message).toBe(message);
  else expect(body.message).toMatch(message);
};
