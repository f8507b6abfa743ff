import type { Envelope, Reply, SessionBatch } from '../../proto/gen/chorus/v1/node.js';
import { InternalError } from '../../src/domain/errors.js';
import { openEnvelope, replyOf } from './envelopeCodec.js';
import type { LocalNode } from './LocalNode.js';

/**
 * Serves one envelope from another node, the same way for the unary Deliver/Tell calls and for calls
 * on an Exchange stream: an ask answers with the actor's reply, a tell (`oneWay`) answers undefined
 * once the actor ran it (so a message taken by a node that died before running it is sent again).
 * Throws (WrongOwnerError when this node does not own the actor under its current view) when it is
 * refused; the caller turns that into its own failure shape.
 */
export function serveCall(node: LocalNode, envelope: Envelope, oneWay: false): Promise<Reply>;
export function serveCall(node: LocalNode, envelope: Envelope, oneWay: true): Promise<undefined>;
export function serveCall(node: LocalNode, envelope: Envelope, oneWay: boolean): Promise<Reply | undefined>;
export function serveCall(node: LocalNode, envelope: Envelope, oneWay: boolean): Promise<Reply | undefined> {
  const request = openEnvelope(envelope);
  const { kind, key, command } = request;
  if (oneWay) return Promise.resolve(node.tellLocal(kind, key, command)).then(() => undefined);
  // askLocal checks ownership itself, once it knows where the actor is placed (a channel's guild may
  // need a lookup first), and refuses with WrongOwnerError naming the owner under this node's view.
  return node.askLocal(kind, key, command).then((value) => replyOf(kind, value));
}

/**
 * Hands one fan-out batch from another node to the Session actors hosted here, the same way for the
 * unary FanOut call and for a batch on an Exchange stream; settles once the sessions took the event
 * (journaled, re-routed or ended). Throws InternalError when it has no event.
 */
export function serveFanOut(node: LocalNode, { event, sessionIds, source }: SessionBatch): Promise<undefined> {
  if (!event) throw new InternalError({ cause: new Error('SessionBatch has no event') });
  return Promise.resolve(node.deliverFanOut(sessionIds, event, source)).then(() => undefined);
}
