import type { GuildStore } from '../runtime/ports/stores.js';

/**
 * Finds the guild an invite code belongs to, for the edge (EdgeDeps.InviteDirectory): invites are
 * owned by their Guild actor, but the code → guild index lives in storage, so one read answers it.
 */
export class InviteLookup {
  constructor(private readonly guilds: GuildStore) {}

  /** The guild id of the invite, or undefined for an unknown code. */
  async resolveInvite(code: string): Promise<string | undefined> {
    const invite = await this.guilds.getInvite(code);
    return invite?.guild_id ?? undefined;
  }
}
