import type { InviteRecord } from '../../../actors/runtime/ports/records.js';
import { ConflictError, ServiceUnavailableError } from '../../domain/errors.js';
import { documentOf, textColumn, type CassandraSession } from './CassandraSession.js';

/** Rounds of insert-or-replace before giving up on a code that keeps being deleted and re-created. */
const SAVE_ATTEMPTS = 3;
/** Invites deleted at once when a guild goes. */
const DELETE_CONCURRENCY = 8;

/** Which invite a code belongs to: the same guild and channel means the same invite, saved again. */
function ownerOf(invite: InviteRecord): string {
  return `${invite.guild_id ?? ''}/${invite.channel_id}`;
}

/**
 * Invite codes on Cassandra. The `invites` row (by code) is itself the uniqueness claim, so every write
 * to it is a lightweight transaction: INSERT IF NOT EXISTS for a new code, UPDATE IF owner = (guild,
 * channel) to save an invite again, DELETE IF owner to remove it. `invites_by_guild` lists a guild's codes;
 * it is written before the invite (an LWT cannot share a batch with another partition) and reads check
 * every listed code against its invite, so a row left by a failure is never reported.
 */
export class CassandraInvites {
  constructor(private readonly session: CassandraSession) {}

  async get(code: string): Promise<InviteRecord | undefined> {
    return documentOf<InviteRecord>(await this.session.first('SELECT data FROM invites WHERE code = ?', [code]));
  }

  /** The guild's invites in code order. */
  async listByGuild(guildId: string): Promise<InviteRecord[]> {
    const rows = await this.session.rows('SELECT code FROM invites_by_guild WHERE guild_id = ?', [guildId]);
    const invites = await Promise.all(rows.map((row) => this.get(textColumn(row, 'code') ?? '')));
    return invites.filter((invite): invite is InviteRecord => invite?.guild_id === guildId);
  }

  /**
   * Inserts, or replaces the invite with this code when it is the same invite (same guild and channel);
   * ConflictError when the code belongs to another invite, which is then left as it was.
   */
  async save(invite: InviteRecord): Promise<void> {
    const owner = ownerOf(invite);
    const data = JSON.stringify(invite);
    if (invite.guild_id !== null) {
      await this.session.write('INSERT INTO invites_by_guild (guild_id, code) VALUES (?, ?)', [
        invite.guild_id,
        invite.code,
      ]);
    }
    for (let attempt = 0; attempt < SAVE_ATTEMPTS; attempt += 1) {
      const inserted = await this.session.conditional(
        'INSERT INTO invites (code, owner, data) VALUES (?, ?, ?) IF NOT EXISTS',
        [invite.code, owner, data],
      );
      if (inserted.applied) return;
      const holder = textColumn(inserted.current, 'owner');
      if (holder !== owner) {
        await this.#dropIndexRow(invite, holder);
        throw new ConflictError('Invite code already taken');
      }
      const replaced = await this.session.conditional('UPDATE invites SET data = ? WHERE code = ? IF owner = ?', [
        data,
        invite.code,
        owner,
      ]);
      if (replaced.applied) return;
      // Deleted between the two steps: try the insert again.
    }
    throw new ServiceUnavailableError('Invite code is changing too fast, try again');
  }

  /** Deletes the invite with this code, if any. */
  async delete(code: string): Promise<void> {
    const invite = await this.get(code);
    if (invite === undefined) return;
    await this.session.conditional('DELETE FROM invites WHERE code = ? IF owner = ?', [code, ownerOf(invite)]);
    if (invite.guild_id !== null) {
      await this.session.write('DELETE FROM invites_by_guild WHERE guild_id = ? AND code = ?', [invite.guild_id, code]);
    }
  }

  /** Deletes every invite of the guild, then its whole index partition. */
  async deleteAllOfGuild(guildId: string): Promise<void> {
    const invites = await this.listByGuild(guildId);
    await this.session.forEach(invites, DELETE_CONCURRENCY, (invite) => this.delete(invite.code));
    await this.session.write('DELETE FROM invites_by_guild WHERE guild_id = ?', [guildId]);
  }

  /**
   * After a conflict, removes the index row this save wrote, unless the code's holder is of the same
   * guild (then the row lists the holder, and stays).
   */
  async #dropIndexRow(invite: InviteRecord, holder: string | undefined): Promise<void> {
    if (invite.guild_id === null || holder?.startsWith(`${invite.guild_id}/`)) return;
    await this.session.write('DELETE FROM invites_by_guild WHERE guild_id = ? AND code = ?', [
      invite.guild_id,
      invite.code,
    ]);
  }
}
