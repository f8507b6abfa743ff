import type { types } from 'cassandra-driver';
import type { ChannelRecord } from '../../../actors/runtime/ports/records.js';
import type { ChannelOwnerFields, ChannelStore } from '../../../actors/runtime/ports/stores.js';
import { newerSnowflake } from '../../domain/snowflake.js';
import { idText, writableKey } from './cassandraIds.js';
import { documentOf, textColumn, type CassandraSession, type Cql } from './CassandraSession.js';

/** Discord's DM channel type (a group DM is 3). */
const DM_CHANNEL_TYPE = 1;

/** The users a private channel is listed for; none for a guild channel (its recipient_ids is no index). */
function privateRecipients(channel: ChannelRecord): string[] {
  return channel.guild_id === null ? [...new Set(channel.recipient_ids)] : [];
}

/** The (low, high) user pairs a 1:1 DM is found by; a DM with oneself is the pair (me, me). */
function dmPairs(channel: ChannelRecord): [string, string][] {
  if (channel.guild_id !== null || channel.type !== DM_CHANNEL_TYPE) return [];
  const users = [...new Set(channel.recipient_ids)].sort();
  if (users.length === 1) return [[users[0] ?? '', users[0] ?? '']];
  const pairs: [string, string][] = [];
  users.forEach((low, i) => {
    for (const high of users.slice(i + 1)) pairs.push([low, high]);
  });
  return pairs;
}

const pairKey = ([low, high]: [string, string]) => `${low}/${high}`;

/** Statements deleting the index rows `stored` has and `next` (if any) does not. */
function staleIndexRows(stored: ChannelRecord, next: ChannelRecord | undefined): Cql[] {
  const key = writableKey(stored.id);
  const statements: Cql[] = [];
  if (stored.guild_id !== null && stored.guild_id !== next?.guild_id) {
    statements.push({
      query: 'DELETE FROM channels_by_guild WHERE guild_id = ? AND channel_id = ?',
      params: [stored.guild_id, key],
    });
  }
  const keptUsers = new Set(next === undefined ? [] : privateRecipients(next));
  for (const userId of privateRecipients(stored)) {
    if (keptUsers.has(userId)) continue;
    statements.push({
      query: 'DELETE FROM private_channels_by_user WHERE user_id = ? AND channel_id = ?',
      params: [userId, key],
    });
  }
  const keptPairs = new Set((next === undefined ? [] : dmPairs(next)).map(pairKey));
  for (const pair of dmPairs(stored)) {
    if (keptPairs.has(pairKey(pair))) continue;
    statements.push({
      query: 'DELETE FROM dm_channels_by_pair WHERE user_low = ? AND user_high = ? AND channel_id = ?',
      params: [...pair, key],
    });
  }
  return statements;
}

/**
 * The record of a row: its `data` with the Channel actor's `owner_fields` over it. A row with owner
 * fields and no data is what a flush left of a channel deleted meanwhile: no channel.
 */
function channelOf(row: types.Row | undefined): ChannelRecord | undefined {
  const channel = documentOf<ChannelRecord>(row);
  const owned = textColumn(row, 'owner_fields');
  if (channel === undefined || owned === undefined) return channel;
  const fields = JSON.parse(owned) as ChannelOwnerFields;
  const last_message_id = newerSnowflake(channel.last_message_id, fields.last_message_id);
  return { ...channel, last_message_id, last_pin_timestamp: fields.last_pin_timestamp };
}

function channelsOf(rows: readonly types.Row[]): ChannelRecord[] {
  const out: ChannelRecord[] = [];
  for (const row of rows) {
    const channel = channelOf(row);
    if (channel !== undefined) out.push(channel);
  }
  return out;
}

/** Statements writing `channel` and every index row it needs. */
function upsert(channel: ChannelRecord): Cql[] {
  const key = writableKey(channel.id);
  const data = JSON.stringify(channel);
  const statements: Cql[] = [{ query: 'INSERT INTO channels (id, data) VALUES (?, ?)', params: [channel.id, data] }];
  if (channel.guild_id !== null) {
    statements.push({
      query: 'INSERT INTO channels_by_guild (guild_id, channel_id, data) VALUES (?, ?, ?)',
      params: [channel.guild_id, key, data],
    });
  }
  for (const userId of privateRecipients(channel)) {
    statements.push({
      query: 'INSERT INTO private_channels_by_user (user_id, channel_id, data) VALUES (?, ?, ?)',
      params: [userId, key, data],
    });
  }
  for (const pair of dmPairs(channel)) {
    statements.push({
      query: 'INSERT INTO dm_channels_by_pair (user_low, user_high, channel_id) VALUES (?, ?, ?)',
      params: [...pair, key],
    });
  }
  return statements;
}

/**
 * ChannelStore on Cassandra. `channels` by id, with copies in `channels_by_guild` (listByGuild) and
 * `private_channels_by_user` (listPrivate, one row per recipient), and `dm_channels_by_pair` (findDm);
 * every save or delete writes all of them in one logged batch. A save reads the stored record first to
 * drop index rows it no longer needs (a recipient removed from a group DM); one actor owns each channel's
 * writes, so that read-then-write does not race. The Channel actor's own fields (last_message_id,
 * last_pin_timestamp, flushed after each burst of messages) go to an `owner_fields` column of the same
 * rows, a plain UPDATE without a read (see channelOf).
 */
export class CassandraChannelStore implements ChannelStore {
  constructor(private readonly session: CassandraSession) {}

  async get(id: string): Promise<ChannelRecord | undefined> {
    return channelOf(await this.session.first('SELECT data, owner_fields FROM channels WHERE id = ?', [id]));
  }

  /** One single-partition UPDATE per row that holds the record (no batch log: a later flush repairs a lost one). */
  async saveOwnerFields(channel: ChannelRecord, fields: ChannelOwnerFields): Promise<void> {
    const owned = JSON.stringify({
      last_message_id: fields.last_message_id,
      last_pin_timestamp: fields.last_pin_timestamp,
    });
    const key = writableKey(channel.id);
    const writes = [this.session.write('UPDATE channels SET owner_fields = ? WHERE id = ?', [owned, channel.id])];
    if (channel.guild_id !== null) {
      writes.push(
        this.session.write('UPDATE channels_by_guild SET owner_fields = ? WHERE guild_id = ? AND channel_id = ?', [
          owned,
          channel.guild_id,
          key,
        ]),
      );
    }
    for (const userId of privateRecipients(channel)) {
      writes.push(
        this.session.write(
          'UPDATE private_channels_by_user SET owner_fields = ? WHERE user_id = ? AND channel_id = ?',
          [owned, userId, key],
        ),
      );
    }
    await Promise.all(writes);
  }

  async save(channel: ChannelRecord): Promise<void> {
    const stored = await this.get(channel.id);
    await this.session.batch([...(stored === undefined ? [] : staleIndexRows(stored, channel)), ...upsert(channel)]);
  }

  /** Deletes the channel and its index rows (its messages stay with the MessageStore). */
  async delete(id: string): Promise<void> {
    const stored = await this.get(id);
    if (stored === undefined) return;
    await this.session.batch([
      { query: 'DELETE FROM channels WHERE id = ?', params: [id] },
      ...staleIndexRows(stored, undefined),
    ]);
  }

  /** The guild's channels in id order. */
  async listByGuild(guildId: string): Promise<ChannelRecord[]> {
    return channelsOf(
      await this.session.rows('SELECT data, owner_fields FROM channels_by_guild WHERE guild_id = ?', [guildId]),
    );
  }

  /** The user's DMs and group DMs in id order. */
  async listPrivate(userId: string): Promise<ChannelRecord[]> {
    return channelsOf(
      await this.session.rows('SELECT data, owner_fields FROM private_channels_by_user WHERE user_id = ?', [userId]),
    );
  }

  /** The 1:1 DM between the two users with the lowest id, if any. */
  async findDm(userA: string, userB: string): Promise<ChannelRecord | undefined> {
    const [low, high] = [userA, userB].sort() as [string, string];
    const rows = await this.session.rows(
      'SELECT channel_id FROM dm_channels_by_pair WHERE user_low = ? AND user_high = ?',
      [low, high],
    );
    for (const row of rows) {
      const channel = await this.get(idText(row.get('channel_id')));
      if (channel !== undefined && dmPairs(channel).some((pair) => pair[0] === low && pair[1] === high)) return channel;
    }
    return undefined;
  }
}
