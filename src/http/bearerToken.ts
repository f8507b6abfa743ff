import { timingSafeEqual } from 'node:crypto';

/**
 * Whether an Authorization header is exactly `Bearer <token>`, compared in constant time (a shared
 * secret of the operator: CHORUS_METRICS_TOKEN, CHORUS_ADMIN_TOKEN). An empty token matches nothing.
 */
export function bearerMatcher(token: string): (header: string) => boolean {
  const expected = Buffer.from(`Bearer ${token}`);
  return (header) => {
    if (token === '') return false;
    const given = Buffer.from(header);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
}
