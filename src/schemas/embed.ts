import { arr, bool, choices, int, obj, str } from './builders.js';
import { TIMESTAMP_MAX_LENGTH, URL_MAX_LENGTH } from './discordLimits.js';

/** Discord: at most 25 fields per embed. */
const MAX_EMBED_FIELDS = 25;
const url = () => str({ maxLength: URL_MAX_LENGTH });

/** An image, thumbnail or video inside an embed. */
export const EmbedImage = obj({ url: url(), proxy_url: url(), height: int(), width: int() });
/** Validated EmbedImage value. */
export interface EmbedImage {
  url?: string;
  proxy_url?: string;
  height?: number;
  width?: number;
}

/** A rich embed, with Discord's documented per-field limits (title 256, description 4096, 25 fields, ...). */
// Also footer text 2048, field name 256 / value 1024, author name 256. The 6000-character total is a route check.
export const Embed = obj({
  title: str({ maxLength: 256 }),
  type: choices('string', ['article', 'gifv', 'image', 'link', 'rich', 'video']),
  description: str({ maxLength: 4096 }),
  url: url(),
  timestamp: str({ format: 'date-time', maxLength: TIMESTAMP_MAX_LENGTH }),
  color: int(),
  footer: obj({ text: str({ maxLength: 2048 }), icon_url: url(), proxy_icon_url: url() }, ['text']),
  image: EmbedImage,
  thumbnail: EmbedImage,
  video: EmbedImage,
  provider: obj({ name: str({ maxLength: 256 }), url: url() }),
  author: obj({ name: str({ maxLength: 256 }), url: url(), icon_url: url(), proxy_icon_url: url() }),
  fields: arr(
    obj({ name: str({ maxLength: 256 }), value: str({ maxLength: 1024 }), inline: bool() }, ['name', 'value']),
    { maxItems: MAX_EMBED_FIELDS },
  ),
});
/** Validated Embed value. */
export interface Embed {
  title?: string;
  type?: 'article' | 'gifv' | 'image' | 'link' | 'rich' | 'video';
  description?: string;
  url?: string;
  timestamp?: string;
  color?: number;
  footer?: { text: string; icon_url?: string; proxy_icon_url?: string };
  image?: EmbedImage;
  thumbnail?: EmbedImage;
  video?: EmbedImage;
  provider?: { name?: string; url?: string };
  author?: { name?: string; url?: string; icon_url?: string; proxy_icon_url?: string };
  fields?: { name: string; value: string; inline?: boolean }[];
}
