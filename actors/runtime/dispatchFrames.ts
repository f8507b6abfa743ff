import type { BufferedFrame } from './ports/sessionStore.js';

/**
 * A dispatch frame built around the already-serialized `d`, so an event serialized once by its
 * owner is never re-serialized per session. Event names are UPPER_SNAKE (nothing to escape).
 */
export function dispatchFrame(event: string, seq: number, dataJson: string): string {
  return `{"op":0,"t":"${event}","s":${seq},"d":${dataJson}}`;
}

/** A kept frame's text, as it was first sent. */
export function keptFrameText(frame: BufferedFrame): string {
  return dispatchFrame(frame.event, frame.seq, frame.data);
}

/** What dispatchFrame puts before the event name, and between the name and the sequence. */
const HEAD = '{"op":0,"t":"';
const FRAME_TEXT = /^\{"op":0,"t":"([A-Z0-9_]+)","s":(\d+),"d":/;

/**
 * The kept frame a frame's text holds (a store keeps the text). Text dispatchFrame wrote is cut apart
 * without parsing its payload; any other dispatch frame is parsed.
 */
export function keptFrameOf(text: string): BufferedFrame | undefined {
  const cut = text.startsWith(HEAD) && text.endsWith('}') ? FRAME_TEXT.exec(text) : null;
  if (cut) {
    const [head, event, seq] = cut as unknown as [string, string, string];
    return { seq: Number(seq), event, data: text.slice(head.length, -1) };
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { t, s, d } = parsed as Record<string, unknown>;
    if (typeof t !== 'string' || typeof s !== 'number') return undefined;
    return { seq: s, event: t, data: JSON.stringify(d ?? null) };
  } catch {
    return undefined;
  }
}
