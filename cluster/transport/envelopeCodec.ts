import type { ActorKind, CommandOf, ReplyOf } from '../../actors/runtime/ActorKind.js';
import type { Envelope, Reply } from '../../proto/gen/chorus/v1/node.js';
import { InternalError } from '../../src/domain/errors.js';

type EnvelopeBody = NonNullable<Envelope['body']>;
type ReplyBody = NonNullable<Reply['body']>;

/** One actor request taken out of its envelope. */
export interface OpenedEnvelope {
  readonly kind: ActorKind;
  readonly key: string;
  readonly command: CommandOf<ActorKind>;
  /** Absolute deadline (ms since the epoch); 0 when the sender set none. */
  readonly deadlineAtMs: number;
  readonly ringVersion: number;
}

/** Wraps a command for the wire; `actor_id` carries the key, the oneof case names the kind. */
export function envelopeOf<K extends ActorKind>(
  kind: K,
  key: string,
  command: CommandOf<K>,
  ringVersion: number,
  deadlineAtMs: number,
): Envelope {
  // Each oneof case is named after its kind, so one computed key covers them all (no per-kind copy).
  const body = { $case: kind, [kind]: command } as unknown as EnvelopeBody;
  return { actorId: key, ringVersion: String(ringVersion), deadlineMs: String(deadlineAtMs), body };
}

/** Takes the request out of an envelope; throws InternalError when it has no body (a sender bug). */
export function openEnvelope(envelope: Envelope): OpenedEnvelope {
  const { body, actorId: key } = envelope;
  const deadlineAtMs = Number(envelope.deadlineMs);
  const ringVersion = Number(envelope.ringVersion);
  if (body === undefined) throw new InternalError({ cause: new Error(`Envelope for ${key} has no body`) });
  switch (body.$case) {
    case 'guild':
      return { kind: 'guild', key, command: body.guild, deadlineAtMs, ringVersion };
    case 'channel':
      return { kind: 'channel', key, command: body.channel, deadlineAtMs, ringVersion };
    case 'user':
      return { kind: 'user', key, command: body.user, deadlineAtMs, ringVersion };
    case 'session':
      return { kind: 'session', key, command: body.session, deadlineAtMs, ringVersion };
    case 'voice':
      return { kind: 'voice', key, command: body.voice, deadlineAtMs, ringVersion };
  }
}

/** Wraps an actor's reply for the wire. */
export function replyOf<K extends ActorKind>(kind: K, reply: ReplyOf<K>): Reply {
  return { body: { $case: kind, [kind]: reply } as unknown as ReplyBody };
}

/** Takes the reply of kind K out of a Reply; throws InternalError when the case does not match. */
export function openReply<K extends ActorKind>(kind: K, reply: Reply): ReplyOf<K> {
  const body = reply.body;
  if (body?.$case !== kind) {
    throw new InternalError({ cause: new Error(`Expected a ${kind} reply, got ${body?.$case ?? 'none'}`) });
  }
  return (body as unknown as Record<K, ReplyOf<K>>)[kind];
}
