/**
 * A dispatch frame built around the already-serialized `d`, so an event serialized once by its
 * owner is never re-serialized per session. Event names are UPPER_SNAKE (nothing to escape).
 */
export function dispatchFrame(event: string, seq: number, dataJson: string): string {
  return `{"op":0,"t":"${event}","s":${seq},"d":${dataJson}}`;
}
