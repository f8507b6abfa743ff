import { Type, type Static } from '@sinclair/typebox';
import { TIMESTAMP_MAX_LENGTH, URL_MAX_LENGTH } from './discordLimits.js';
import { boundedArray, choices, closedObject, integer } from './wireTypes.js';

/** Discord: at most 25 fields per embed. */
const MAX_EMBED_FIELDS = 25;
const url = () => Type.String({ maxLength: URL_MAX_LENGTH });

/** An image, thumbnail or video inside an embed. */
export const EmbedImage = closedObject({
  url: Type.Optional(url()),
  proxy_url: Type.Optional(url()),
  height: Type.Optional(integer()),
  width: Type.Optional(integer()),
});
/** Validated EmbedImage value. */
export type EmbedImage = Static<typeof EmbedImage>;

/** A rich embed, with Discord's documented per-field limits (title 256, description 4096, 25 fields, ...). */
// Also footer text 2048, field name 256 / value 1024, author name 256. The 6000-character total is a route check.
export const Embed = closedObject({
  title: Type.Optional(Type.String({ maxLength: 256 })),
  type: Type.Optional(choices('string', ['article', 'gifv', 'image', 'link', 'rich', 'video'])),
  description: Type.Optional(Type.String({ maxLength: 4096 })),
  url: Type.Optional(url()),
  timestamp: Type.Optional(Type.String({ format: 'date-time', maxLength: TIMESTAMP_MAX_LENGTH })),
  color: Type.Optional(integer()),
  footer: Type.Optional(
    closedObject({
      text: Type.String({ maxLength: 2048 }),
      icon_url: Type.Optional(url()),
      proxy_icon_url: Type.Optional(url()),
    }),
  ),
  image: Type.Optional(EmbedImage),
  thumbnail: Type.Optional(EmbedImage),
  video: Type.Optional(EmbedImage),
  provider: Type.Optional(
    closedObject({ name: Type.Optional(Type.String({ maxLength: 256 })), url: Type.Optional(url()) }),
  ),
  author: Type.Optional(
    closedObject({
      name: Type.Optional(Type.String({ maxLength: 256 })),
      url: Type.Optional(url()),
      icon_url: Type.Optional(url()),
      proxy_icon_url: Type.Optional(url()),
    }),
  ),
  fields: Type.Optional(
    boundedArray(
      closedObject({
        name: Type.String({ maxLength: 256 }),
        value: Type.String({ maxLength: 1024 }),
        inline: Type.Optional(Type.Boolean()),
      }),
      { maxItems: MAX_EMBED_FIELDS },
    ),
  ),
});
/** Validated Embed value. */
export type Embed = Static<typeof Embed>;
