/**
 * Identify `capabilities` bits of user clients (gateway.md §13) that change what Chorus sends. Bits
 * not listed here (LAZY_USER_NOTES, AUTH_TOKEN_REFRESH, ...) are accepted and change nothing.
 */
export const Capability = {
  VERSIONED_READ_STATES: 1 << 2,
  VERSIONED_USER_GUILD_SETTINGS: 1 << 3,
  DEDUPE_USER_OBJECTS: 1 << 4,
  /** Only with DEDUPE_USER_OBJECTS: READY carries the essentials, READY_SUPPLEMENTAL the rest. */
  PRIORITIZED_READY_PAYLOAD: 1 << 5,
  USER_SETTINGS_PROTO: 1 << 9,
  CLIENT_STATE_V2: 1 << 10,
} as const;
/** One of the Capability bits. */
export type Capability = (typeof Capability)[keyof typeof Capability];

/** The shape a user session's READY (and its live GUILD_CREATEs) take, decided once from the bits. */
export interface ReadyShape {
  readonly versionedReadStates: boolean;
  readonly versionedGuildSettings: boolean;
  readonly dedupeUsers: boolean;
  readonly prioritized: boolean;
  readonly settingsProto: boolean;
  readonly clientStateV2: boolean;
}

/** True when `capabilities` has `bit`. */
export function hasCapability(capabilities: number, bit: Capability): boolean {
  // `>>> 0` keeps the 32-bit pattern the proto carries, whatever the JS number.
  return ((capabilities >>> 0) & bit) !== 0;
}

/** The READY shape a client asked for; PRIORITIZED_READY_PAYLOAD counts only with DEDUPE_USER_OBJECTS. */
export function readyShape(capabilities: number): ReadyShape {
  const dedupeUsers = hasCapability(capabilities, Capability.DEDUPE_USER_OBJECTS);
  return {
    versionedReadStates: hasCapability(capabilities, Capability.VERSIONED_READ_STATES),
    versionedGuildSettings: hasCapability(capabilities, Capability.VERSIONED_USER_GUILD_SETTINGS),
    dedupeUsers,
    prioritized: dedupeUsers && hasCapability(capabilities, Capability.PRIORITIZED_READY_PAYLOAD),
    settingsProto: hasCapability(capabilities, Capability.USER_SETTINGS_PROTO),
    clientStateV2: hasCapability(capabilities, Capability.CLIENT_STATE_V2),
  };
}
