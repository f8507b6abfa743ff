import type { SessionPresence } from '../../proto/gen/chorus/v1/user.js';
import { parseJson } from '../../src/domain/jsonValue.js';
import { sessionStatusOf, type Platform, type SessionPresenceState } from './userPresence.js';

const PLATFORMS = new Set<string>(['desktop', 'mobile', 'web']);

/** One session's presence from its command (the session validated it); undefined when it does not fit. */
export function sessionPresenceOf(command: SessionPresence): SessionPresenceState | undefined {
  const status = sessionStatusOf(command.status);
  if (status === undefined) return undefined;
  let activities: unknown;
  try {
    activities = parseJson(command.activitiesJson || '[]');
  } catch {
    return undefined;
  }
  const platform: Platform = PLATFORMS.has(command.platform) ? (command.platform as Platform) : 'web';
  return { status, activities: Array.isArray(activities) ? activities : [], platform };
}
