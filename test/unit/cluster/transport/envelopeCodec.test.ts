import assert from 'node:assert/strict';
import type { ActorKind, CommandOf, ReplyOf } from '../../../../actors/runtime/ActorKind.js';
import { envelopeOf, openEnvelope, openReply, replyOf } from '../../../../cluster/transport/envelopeCodec.js';
import { GetChannel } from '../../../../proto/gen/chorus/v1/channel.js';
import { GuildRequest } from '../../../../proto/gen/chorus/v1/guild.js';
import { Envelope, Reply } from '../../../../proto/gen/chorus/v1/node.js';
import { MemberVoiceState } from '../../../../proto/gen/chorus/v1/voice.js';
import { InternalError } from '../../../../src/domain/errors.js';

const COMMANDS: { [K in ActorKind]: CommandOf<K> } = {
  guild: {
    command: {
      $case: 'getGuild',
      getGuild: GuildRequest.fromPartial({ caller: { userId: '1', bot: false, rights: '0' }, withCounts: true }),
    },
  },
  channel: { command: { $case: 'getChannel', getChannel: GetChannel.fromPartial({ body: '{"a":1}' }) } },
  user: { command: undefined },
  session: {
    command: {
      $case: 'heartbeat',
      heartbeat: { seq: '42', socket: { nodeId: '127.0.0.1:1@1', socketId: 'socket-1' } },
    },
  },
  voice: {
    command: {
      $case: 'memberVoiceState',
      memberVoiceState: MemberVoiceState.fromPartial({ guildId: '1', userId: '2', sessionId: 's', selfDeaf: true }),
    },
  },
};

const REPLIES: { [K in ActorKind]: ReplyOf<K> } = {
  guild: { reply: { $case: 'json', json: { json: '{"id":"1"}' } } },
  channel: { reply: { $case: 'empty', empty: {} } },
  user: { reply: { $case: 'empty', empty: {} } },
  session: { reply: { $case: 'identified', identified: { userId: '7' } } },
  voice: {},
};

function overTheWire<T>(codec: { encode(m: T): { finish(): Uint8Array }; decode(b: Uint8Array): T }, message: T): T {
  return codec.decode(codec.encode(message).finish());
}

describe('envelopeCodec', () => {
  for (const kind of Object.keys(COMMANDS) as ActorKind[]) {
    it(`carries a ${kind} command and its reply across the wire`, () => {
      const sent = envelopeOf(kind, 'key-1', COMMANDS[kind], 7, 1_700_000_000_123);
      const opened = openEnvelope(overTheWire(Envelope, sent));
      assert.deepEqual(opened, {
        kind,
        key: 'key-1',
        command: COMMANDS[kind],
        deadlineAtMs: 1_700_000_000_123,
        ringVersion: 7,
      });
      assert.deepEqual(openReply(kind, overTheWire(Reply, replyOf(kind, REPLIES[kind]))), REPLIES[kind]);
    });
  }

  it('refuses an envelope without a body', () => {
    assert.throws(
      () => openEnvelope({ actorId: 'x', ringVersion: '0', deadlineMs: '0', body: undefined }),
      InternalError,
    );
  });

  it('refuses a reply of another kind', () => {
    assert.throws(() => openReply('channel', replyOf('session', REPLIES.session)), InternalError);
  });
});
