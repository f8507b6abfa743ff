/** One versioned schema change, applied once per database inside its own transaction. */
export interface Migration {
  /** Positive and strictly increasing along MIGRATIONS; never reused or renumbered. */
  readonly version: number;
  readonly name: string;
  /** Statements run with `exec`; no BEGIN/COMMIT (the runner wraps each migration in a transaction). */
  readonly sql: string;
}

/**
 * The schema, oldest change first. Records live as JSON in `data`; the other columns are the keys the
 * store queries use. Message ids are INTEGER so they sort numerically (snowflakes are < 2^63).
 * Append new migrations; never edit one that has shipped.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        email TEXT UNIQUE,
        username TEXT NOT NULL,
        discriminator TEXT NOT NULL,
        data TEXT NOT NULL,
        UNIQUE (username, discriminator)
      ) STRICT;

      CREATE TABLE applications (
        id TEXT PRIMARY KEY,
        owner_id TEXT NOT NULL,
        bot_user_id TEXT UNIQUE,
        data TEXT NOT NULL
      ) STRICT;
      CREATE INDEX applications_by_owner ON applications (owner_id);

      CREATE TABLE guilds (
        id TEXT PRIMARY KEY,
        data TEXT NOT NULL
      ) STRICT;

      CREATE TABLE roles (
        guild_id TEXT NOT NULL,
        id TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (guild_id, id)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE members (
        guild_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (guild_id, user_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX members_by_user ON members (user_id);

      CREATE TABLE invites (
        code TEXT PRIMARY KEY,
        guild_id TEXT,
        channel_id TEXT NOT NULL,
        data TEXT NOT NULL
      ) STRICT;
      CREATE INDEX invites_by_guild ON invites (guild_id);

      CREATE TABLE channels (
        id TEXT PRIMARY KEY,
        guild_id TEXT,
        type INTEGER NOT NULL,
        data TEXT NOT NULL
      ) STRICT;
      CREATE INDEX channels_by_guild ON channels (guild_id);

      -- One row per recipient of a DM or group DM: listPrivate reads by user, findDm joins two users.
      CREATE TABLE channel_recipients (
        user_id TEXT NOT NULL,
        channel_id TEXT NOT NULL,
        PRIMARY KEY (user_id, channel_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX channel_recipients_by_channel ON channel_recipients (channel_id);

      -- pin_seq orders pins (newest pin first); NULL when the message is not pinned.
      CREATE TABLE messages (
        channel_id TEXT NOT NULL,
        id INTEGER NOT NULL,
        pin_seq INTEGER,
        data TEXT NOT NULL,
        PRIMARY KEY (channel_id, id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX messages_pinned ON messages (channel_id, pin_seq) WHERE pin_seq IS NOT NULL;

      -- seq is the rowid: a new row gets max(seq) + 1, so seq orders the reactions that exist by addition.
      CREATE TABLE reactions (
        seq INTEGER PRIMARY KEY,
        channel_id TEXT NOT NULL,
        message_id INTEGER NOT NULL,
        emoji TEXT NOT NULL,
        user_id TEXT NOT NULL,
        data TEXT NOT NULL,
        UNIQUE (channel_id, message_id, emoji, user_id)
      ) STRICT;
      CREATE INDEX reactions_by_message ON reactions (channel_id, message_id, seq);
    `,
  },
  {
    // Numbered as in Cassandra (4 is webhooks there too).
    version: 4,
    name: 'webhooks',
    sql: `
      CREATE TABLE webhooks (
        id TEXT PRIMARY KEY,
        channel_id TEXT NOT NULL,
        guild_id TEXT,
        data TEXT NOT NULL
      ) STRICT;
      CREATE INDEX webhooks_by_channel ON webhooks (channel_id);
      CREATE INDEX webhooks_by_guild ON webhooks (guild_id);
    `,
  },
  {
    // Numbered as in Cassandra (migrations.ts there: 4 is webhooks), so one version names one change.
    version: 5,
    name: 'application commands',
    sql: `
      -- scope is the guild id of a guild command, '0' for a global one.
      CREATE TABLE application_commands (
        application_id TEXT NOT NULL,
        scope TEXT NOT NULL,
        id INTEGER NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (application_id, scope, id)
      ) STRICT, WITHOUT ROWID;
    `,
  },
  {
    // Numbered as in Cassandra (6 there re-keys the same records).
    version: 6,
    name: 'bot applications keyed by their bot user',
    // On Discord a bot's user id is its application's id (Discordeno derives one from the other), and new
    // bots are created that way. Older bots got a user id of their own; this gives their application the
    // bot's user id rather than the reverse: the application is referenced by its row, its commands and
    // the key of its icon, while the bot user is referenced by members, messages, reactions, DMs,
    // relationships, overwrites and its tokens (which embed the user id, so they all stay valid).
    // Icon files are outside the database: their renames are queued in blob_renames and applied by the
    // node at start (the blob store is not SQL).
    sql: `
      CREATE TABLE blob_renames (
        from_key TEXT PRIMARY KEY,
        to_key TEXT NOT NULL
      ) STRICT;

      CREATE TEMP TABLE application_rekeys AS
        SELECT id AS old_id, bot_user_id AS new_id, json_extract(data, '$.icon') AS icon
        FROM applications
        WHERE bot_user_id IS NOT NULL AND bot_user_id <> id;

      INSERT INTO blob_renames (from_key, to_key)
        SELECT 'app-icons/' || old_id || '/' || icon, 'app-icons/' || new_id || '/' || icon
        FROM application_rekeys WHERE typeof(icon) = 'text' AND icon <> '';

      UPDATE application_commands
        SET application_id = r.new_id,
          data = json_set(data, '$.application_id', r.new_id, '$.data.application_id', r.new_id)
        FROM application_rekeys AS r WHERE application_commands.application_id = r.old_id;

      UPDATE applications
        SET id = r.new_id, data = json_set(applications.data, '$.id', r.new_id)
        FROM application_rekeys AS r WHERE applications.id = r.old_id;

      DROP TABLE application_rekeys;
    `,
  },
  {
    // Numbered as in Cassandra (7 is read states there too).
    version: 7,
    name: 'read states',
    sql: `
      -- One row per channel a user acked, posted in or was mentioned in; channel_id INTEGER so it sorts.
      CREATE TABLE read_states (
        user_id TEXT NOT NULL,
        channel_id INTEGER NOT NULL,
        last_message_id TEXT NOT NULL,
        mention_count INTEGER NOT NULL,
        last_pin_timestamp TEXT,
        PRIMARY KEY (user_id, channel_id)
      ) STRICT, WITHOUT ROWID;
    `,
  },
  {
    // SQLite only: GET /policies/stats/ reads these instead of COUNT(*), which walks every message page
    // (200 ms at a million messages, holding the node's one thread). Row triggers see every insert and
    // delete, including a guild delete's cascade; an upsert taking its UPDATE path fires no INSERT trigger.
    version: 8,
    name: 'instance counts',
    sql: `
      CREATE TABLE instance_counts (
        name TEXT PRIMARY KEY,
        count INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;
      INSERT INTO instance_counts (name, count)
        VALUES ('user', (SELECT COUNT(*) FROM users)), ('guild', (SELECT COUNT(*) FROM guilds)),
          ('message', (SELECT COUNT(*) FROM messages)), ('members', (SELECT COUNT(*) FROM members));
      CREATE TRIGGER users_counted AFTER INSERT ON users
        BEGIN UPDATE instance_counts SET count = count + 1 WHERE name = 'user'; END;
      CREATE TRIGGER users_uncounted AFTER DELETE ON users
        BEGIN UPDATE instance_counts SET count = count - 1 WHERE name = 'user'; END;
      CREATE TRIGGER guilds_counted AFTER INSERT ON guilds
        BEGIN UPDATE instance_counts SET count = count + 1 WHERE name = 'guild'; END;
      CREATE TRIGGER guilds_uncounted AFTER DELETE ON guilds
        BEGIN UPDATE instance_counts SET count = count - 1 WHERE name = 'guild'; END;
      CREATE TRIGGER messages_counted AFTER INSERT ON messages
        BEGIN UPDATE instance_counts SET count = count + 1 WHERE name = 'message'; END;
      CREATE TRIGGER messages_uncounted AFTER DELETE ON messages
        BEGIN UPDATE instance_counts SET count = count - 1 WHERE name = 'message'; END;
      CREATE TRIGGER members_counted AFTER INSERT ON members
        BEGIN UPDATE instance_counts SET count = count + 1 WHERE name = 'members'; END;
      CREATE TRIGGER members_uncounted AFTER DELETE ON members
        BEGIN UPDATE instance_counts SET count = count - 1 WHERE name = 'members'; END;
    `,
  },
  {
    // SQLite only. Messages were kept in a WITHOUT ROWID table keyed (channel_id, id): each channel's rows sit in
    // their own leaf pages, so a commit of messages to n channels wrote n leaves of ~800-byte rows and split one
    // in four or five inserts (rewriting its siblings). In rowid order every new message lands on the same last
    // leaf, and the (channel_id, id) index that pages use holds ~30-byte entries: an insert cost 20-40% less CPU
    // (a measured loop of 3-row commits over 10 channels). Same columns, keys and queries; the copy keeps the
    // counts (no trigger fires on it) and the triggers are made again for the new table.
    version: 9,
    name: 'messages in insertion order',
    sql: `
      CREATE TABLE messages_in_order (
        seq INTEGER PRIMARY KEY,
        channel_id TEXT NOT NULL,
        id INTEGER NOT NULL,
        pin_seq INTEGER,
        data TEXT NOT NULL
      ) STRICT;
      INSERT INTO messages_in_order (channel_id, id, pin_seq, data)
        SELECT channel_id, id, pin_seq, data FROM messages ORDER BY id;
      DROP TABLE messages;
      ALTER TABLE messages_in_order RENAME TO messages;
      CREATE UNIQUE INDEX messages_by_channel ON messages (channel_id, id);
      CREATE INDEX messages_pinned ON messages (channel_id, pin_seq) WHERE pin_seq IS NOT NULL;
      CREATE TRIGGER messages_counted AFTER INSERT ON messages
        BEGIN UPDATE instance_counts SET count = count + 1 WHERE name = 'message'; END;
      CREATE TRIGGER messages_uncounted AFTER DELETE ON messages
        BEGIN UPDATE instance_counts SET count = count - 1 WHERE name = 'message'; END;
    `,
  },
  {
    // The message store counts its inserts once per group commit (SqliteMessageStore, GroupCommit's `written`)
    // instead of a trigger updating the count row once per message: 1.5 to 2 µs less a message in a loop of 5-row
    // commits. Deletes keep their trigger (a guild's cascade deletes rows no store call sees one by one).
    version: 10,
    name: 'messages counted per commit',
    sql: `DROP TRIGGER IF EXISTS messages_counted;`,
  },
];
