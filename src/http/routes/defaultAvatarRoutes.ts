import type { Router } from '@koa/router';
import { RouteNotFoundError } from '../../domain/errors.js';
import type { EdgeState } from '../EdgeDeps.js';
import { solidPng, type Rgb } from '../solidPng.js';

/** Discord's default avatar colours, indexed as clients compute the index (`(id >> 22) % 6`, or discriminator % 5). */
const DEFAULT_AVATAR_COLOURS: readonly Rgb[] = [
  { r: 0x58, g: 0x65, b: 0xf2 },
  { r: 0x75, g: 0x7e, b: 0x8a },
  { r: 0x3b, g: 0xa5, b: 0x5c },
  { r: 0xfa, g: 0xa6, b: 0x1a },
  { r: 0xed, g: 0x42, b: 0x45 },
  { r: 0xeb, g: 0x45, b: 0x9f },
];
const SIZE = 128;

/** Rendered once each: they never change. */
const rendered = new Map<number, Buffer>();

/**
 * GET /embed/avatars/{index}.png: the avatar of a user who has none, at the CDN path discord.js's
 * `defaultAvatarURL` and other clients build. A plain square in the index's colour (no logo artwork).
 */
export function defaultAvatarRoutes(router: Router<EdgeState>): void {
  router.get('/embed/avatars/:file', (ctx) => {
    const match = /^([0-5])\.(png|webp|jpg|jpeg|gif)$/.exec(ctx.params['file'] ?? '');
    if (!match) throw new RouteNotFoundError();
    const index = Number(match[1]);
    let png = rendered.get(index);
    if (png === undefined) {
      png = solidPng(SIZE, SIZE, DEFAULT_AVATAR_COLOURS[index] ?? { r: 0, g: 0, b: 0 });
      rendered.set(index, png);
    }
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.type = 'image/png';
    ctx.body = png;
  });
}
