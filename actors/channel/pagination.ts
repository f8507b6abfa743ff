import type { MessagePage } from '../runtime/ports/stores.js';

/** Page size when the request gives none (Discord: 50). */
export const DEFAULT_PAGE_LIMIT = 50;
/** Largest page (Discord: 100). */
export const MAX_PAGE_LIMIT = 100;

/** The query of GET /channels/{id}/messages; empty strings mean "not given". */
export interface PageQuery {
  readonly limit: number;
  readonly before: string;
  readonly after: string;
  readonly around: string;
}

/** How to read one page from the MessageStore: one page, or two halves around a message. */
export type PagePlan =
  | { readonly kind: 'single'; readonly page: MessagePage }
  | { readonly kind: 'around'; readonly newer: MessagePage; readonly older: MessagePage };

/** A limit within 1..100; 0 (absent) means the default. */
export function clampLimit(limit: number, fallback = DEFAULT_PAGE_LIMIT, max = MAX_PAGE_LIMIT): number {
  if (!Number.isFinite(limit) || limit <= 0) return fallback;
  return Math.min(Math.floor(limit), max);
}

/**
 * Plans the store reads for a page. `around` wins over `before`/`after` (as on Discord) and splits
 * the limit: the newer half (ceil) includes the message itself, the older half (floor) is below it.
 * `before` and `after` may be combined; the store bounds the page by both.
 */
export function planPage(query: PageQuery): PagePlan {
  const limit = clampLimit(query.limit);
  if (query.around !== '') {
    const newerLimit = Math.ceil(limit / 2);
    const atOrAbove = BigInt(query.around) > 0n ? (BigInt(query.around) - 1n).toString() : '0';
    return {
      kind: 'around',
      newer: { limit: newerLimit, after: atOrAbove },
      older: { limit: limit - newerLimit, before: query.around },
    };
  }
  const page: { limit: number; before?: string; after?: string } = { limit };
  if (query.before !== '') page.before = query.before;
  if (query.after !== '') page.after = query.after;
  return { kind: 'single', page };
}

/** Joins the two halves of an `around` page: both are newest first and every newer id is above every older one. */
export function joinAround<T>(newer: readonly T[], older: readonly T[]): T[] {
  return [...newer, ...older];
}
