/**
 * The Cassandra schema, as versioned migrations applied at start (see CassandraSchema.ts).
 *
 * DATA MODEL. Every record is stored as its JSON document in a `data` column (as in SQLite); the other
 * columns are the keys it is read by. Each table is keyed by the id the API reads it by; every other
 * access path is a lookup table written together with the main row in a LOGGED BATCH (both or neither),
 * or, where uniqueness is needed, claimed with a lightweight transaction before the main row is written.
 * No query uses ALLOW FILTERING or a secondary index; every read names a partition.
 *
 *   users                     (id) → data
 *   users_by_email            (email) → owner_id              LWT claim: unique email
 *   users_by_tag              ((username, discriminator)) → owner_id   LWT claim: unique tag
 *   applications              (id) → data
 *   applications_by_owner     (owner_id, application_id) → data         copy for listByOwner
 *   applications_by_bot_user  (bot_user_id) → application_id
 *   guilds                    (id) → data
 *   roles                     (guild_id, role_id) → data                ≤ 250 roles per guild
 *   members                   (guild_id, user_id) → data                one partition per guild
 *   guilds_by_user            (user_id, guild_id)                       ≤ 100-200 guilds per user
 *   invites                   (code) → owner, data   every write is an LWT: unique code
 *   invites_by_guild          (guild_id, code)                          ≤ 1000 invites per guild
 *   channels                  (id) → data, owner_fields               owner_fields: the Channel actor's last_message_id, last_pin_timestamp
 *   channels_by_guild         (guild_id, channel_id) → data             ≤ 500 channels per guild
 *   private_channels_by_user  (user_id, channel_id) → data              a user's DMs and group DMs
 *   dm_channels_by_pair       ((user_low, user_high), channel_id)       findDm: lowest id wins
 *   messages                  ((channel_id, bucket), message_id DESC) → pin_seq, data
 *   message_buckets           (channel_id, bucket DESC)                 buckets that hold messages
 *   pins                      (channel_id, pin_seq DESC) → message_id, data   ≤ 250 pins per channel
 *   reactions                 ((channel_id, message_id), seq) → emoji, user_id, data   order of first add
 *   reaction_keys             ((channel_id, message_id), emoji, user_id) → seq         idempotent add
 *   blobs                     (key, chunk) → data; static content_type, size    256 KiB chunks, ≤ 25 MiB a blob
 *   webhooks                  (id) → data
 *   webhooks_by_channel       (channel_id, id) → data                   ≤ 15 webhooks per channel
 *   webhooks_by_guild         (guild_id, id) → data                     copy for GET /guilds/{id}/webhooks
 *   application_commands      ((application_id, scope), command_id) → data   scope: guild id or '0'; ≤ 110 rows
 *   instance_counts           (name) → count counter                     user, guild, message, members
 *
 * Messages follow Discord's 2017 design: bucket = the snowflake's timestamp (ms since the Discord epoch)
 * divided into 10-day windows, so a partition holds one channel's messages of ten days and stays well
 * under Cassandra's ~100 MB partition guidance even for busy channels. A page walks the channel's
 * buckets newest → oldest (oldest → newest for `after`) until `limit` rows are found. Which buckets to
 * walk comes from message_buckets (one small row per 10 days of activity, ~37 a year), written before the
 * first message of a bucket, so a quiet channel's page never scans years of empty windows and the walk
 * is bounded below by the channel's oldest bucket.
 *
 * Bounded partitions: roles, channels, invites, pins and a user's guilds are capped by product limits
 * (250, 500, 1000, 250, 100). Reactions of one message are bounded by 20 distinct emoji times the users
 * who can see the message. Members of a guild are one partition (~0.5-1 KB per member): bounded by the
 * guild's member count, comfortable to ~100k members; past that the guild would need member buckets.
 * private_channels_by_user grows with a user's DMs (one small row each).
 *
 * Pin order and reaction order are sequence numbers (max + 1 read from the partition). That read-then-
 * write is safe because each channel has one owning Channel actor, which serialises its writes; the same
 * single-writer rule makes the read-before-write index maintenance of channels and applications safe.
 *
 * Append new migrations; never edit one that has shipped. Every statement is idempotent
 * (`IF NOT EXISTS`); tables are created `WITH ID` = a UUID derived from keyspace and table name, so
 * nodes racing to create the same table create the very same table (see CassandraSchema.ts).
 */

import type { CassandraSession } from './CassandraSession.js';
import { rekeyBotApplications } from './rekeyBotApplications.js';

/** A CQL statement of a migration; a function when it needs the keyspace (for the table id). */
export type SchemaStatement = string | ((tableId: (table: string) => string) => string);

/**
 * A migration's change to stored records, run after its statements while the runner holds the lock;
 * `keepLock` refreshes the lock (call it between units of work). It must be safe to run again after a
 * crash part-way, since the version is recorded only once it finished.
 */
export type DataMigration = (session: CassandraSession, keepLock: () => Promise<void>) => Promise<void>;

/** One versioned schema change. */
export interface Migration {
  /** Positive and strictly increasing along MIGRATIONS; never reused or renumbered. */
  readonly version: number;
  readonly name: string;
  readonly statements: readonly SchemaStatement[];
  readonly data?: DataMigration;
}

/** `CREATE TABLE IF NOT EXISTS` with a deterministic table id and optional extra table options. */
export function table(name: string, definition: string, options?: string): SchemaStatement {
  return (tableId) =>
    `CREATE TABLE IF NOT EXISTS ${name} (${definition}) WITH ID = ${tableId(name)}` +
    (options === undefined ? '' : ` AND ${options}`);
}

/** The tables the migration runner itself needs; created before the lock is taken. */
export const BOOKKEEPING: readonly SchemaStatement[] = [
  table('schema_migrations', 'version int PRIMARY KEY, name text, applied_at timestamp'),
  table('schema_lock', 'name text PRIMARY KEY, owner uuid, acquired_at timestamp'),
];

/** The schema, oldest change first. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    statements: [
      table('users', 'id text PRIMARY KEY, data text'),
      table('users_by_email', 'email text PRIMARY KEY, owner_id text, claimed_at timestamp'),
      table(
        'users_by_tag',
        'username text, discriminator text, owner_id text, claimed_at timestamp, PRIMARY KEY ((username, discriminator))',
      ),

      table('applications', 'id text PRIMARY KEY, data text'),
      table(
        'applications_by_owner',
        'owner_id text, application_id bigint, data text, PRIMARY KEY (owner_id, application_id)',
      ),
      table('applications_by_bot_user', 'bot_user_id text PRIMARY KEY, application_id text'),

      table('guilds', 'id text PRIMARY KEY, data text'),
      table('roles', 'guild_id text, role_id bigint, data text, PRIMARY KEY (guild_id, role_id)'),
      table('members', 'guild_id text, user_id bigint, data text, PRIMARY KEY (guild_id, user_id)'),
      table('guilds_by_user', 'user_id text, guild_id bigint, PRIMARY KEY (user_id, guild_id)'),
      table('invites', 'code text PRIMARY KEY, owner text, data text'),
      table('invites_by_guild', 'guild_id text, code text, PRIMARY KEY (guild_id, code)'),

      table('channels', 'id text PRIMARY KEY, data text'),
      table('channels_by_guild', 'guild_id text, channel_id bigint, data text, PRIMARY KEY (guild_id, channel_id)'),
      table(
        'private_channels_by_user',
        'user_id text, channel_id bigint, data text, PRIMARY KEY (user_id, channel_id)',
      ),
      table(
        'dm_channels_by_pair',
        'user_low text, user_high text, channel_id bigint, PRIMARY KEY ((user_low, user_high), channel_id)',
      ),

      table(
        'messages',
        'channel_id text, bucket int, message_id bigint, pin_seq bigint, data text, ' +
          'PRIMARY KEY ((channel_id, bucket), message_id)',
        'CLUSTERING ORDER BY (message_id DESC)',
      ),
      table(
        'message_buckets',
        'channel_id text, bucket int, PRIMARY KEY (channel_id, bucket)',
        'CLUSTERING ORDER BY (bucket DESC)',
      ),
      table(
        'pins',
        'channel_id text, pin_seq bigint, message_id bigint, data text, PRIMARY KEY (channel_id, pin_seq)',
        'CLUSTERING ORDER BY (pin_seq DESC)',
      ),
      table(
        'reactions',
        'channel_id text, message_id bigint, seq bigint, emoji text, user_id text, data text, ' +
          'PRIMARY KEY ((channel_id, message_id), seq)',
      ),
      table(
        'reaction_keys',
        'channel_id text, message_id bigint, emoji text, user_id text, seq bigint, ' +
          'PRIMARY KEY ((channel_id, message_id), emoji, user_id)',
      ),
    ],
  },
  {
    version: 2,
    name: 'cluster settings',
    // The token secret and the snowflake generator counter, durable across a loss of Redis (see
    // CassandraClusterSettings).
    statements: [table('cluster_settings', 'name text PRIMARY KEY, value text')],
  },
  {
    version: 3,
    name: 'blobs',
    // Attachment bytes every node can serve, in 256 KiB chunks; size and type are written last and
    // mark the blob complete (see CassandraBlobStore).
    statements: [
      table(
        'blobs',
        'key text, chunk int, data blob, content_type text static, size bigint static, PRIMARY KEY (key, chunk)',
      ),
    ],
  },
  {
    version: 4,
    name: 'webhooks',
    // A webhook by id (the edge's lookup, execute), and copies per channel and per guild for the
    // listings; the three rows are written in one logged batch (see CassandraWebhookStore).
    statements: [
      table('webhooks', 'id text PRIMARY KEY, data text'),
      table('webhooks_by_channel', 'channel_id text, id text, data text, PRIMARY KEY (channel_id, id)'),
      table('webhooks_by_guild', 'guild_id text, id text, data text, PRIMARY KEY (guild_id, id)'),
    ],
  },
  {
    version: 5,
    name: 'application commands',
    // One partition per application and scope (a guild id, or '0' for global commands): every read
    // lists a scope, and a bulk overwrite is one single-partition batch (see CassandraApplicationCommandStore).
    statements: [
      table(
        'application_commands',
        'application_id text, scope text, command_id bigint, data text, ' +
          'PRIMARY KEY ((application_id, scope), command_id)',
      ),
    ],
  },
  {
    version: 6,
    name: 'bot applications keyed by their bot user',
    // A bot's application takes the bot's user id, as on Discord (see rekeyBotApplications.ts for why
    // the application moves rather than the user).
    statements: [],
    data: rekeyBotApplications,
  },
  {
    version: 7,
    name: 'read states',
    // One partition per user, read whole by the User actor (READY); a row per channel it touched.
    statements: [
      table(
        'read_states',
        'user_id text, channel_id bigint, last_message_id text, mention_count int, last_pin_timestamp text, ' +
          'PRIMARY KEY (user_id, channel_id)',
      ),
    ],
  },
  {
    version: 8,
    name: 'instance counts',
    // One counter per counted thing (user, guild, message, members) for GET /policies/stats/: the stores
    // add to it after each insert and delete (see CassandraInstanceCounter for what it does not count).
    statements: [table('instance_counts', 'name text PRIMARY KEY, count counter')],
  },
  {
    version: 9,
    name: 'channel owner fields',
    // The Channel actor's last_message_id and last_pin_timestamp, written after each burst of messages
    // by a plain UPDATE of every row holding the record, instead of reading and rewriting the record
    // (see CassandraChannelStore.saveOwnerFields).
    statements: ['channels', 'channels_by_guild', 'private_channels_by_user'].map(
      (name) => `ALTER TABLE ${name} ADD IF NOT EXISTS owner_fields text`,
    ),
  },
];
