import type { Envelope, Reply, SessionBatch } from '../../proto/gen/chorus/v1/node.js';
import { InternalError, WrongOwnerError } from '../../src/domain/errors.js';
import { openEnvelope, replyOf, type OpenedEnvelope } from './envelopeCodec.js';
import type { LocalNode } from './LocalNode.js';

/**
 * Serves one envelope from another node, the same way for the unary Deliver/Tell calls and for calls
 * on an Exchange stream: an ask answers with the actor's reply, a tell (`oneWay`) answers undefined
 * once the actor's mailbox took it. Throws (WrongOwnerError when this node does not own the actor
 * under its current view) when it is refused; the caller turns that into its own failure shape.
 */
export function serveCall(node: LocalNode, envelope: Envelope, oneWay: false): Promise<Reply>;
export function serveCall(node: LocalNode, envelope: Envelope, oneWay: true): undefined;
export function serveCall(node: LocalNode, envelope: Envelope, oneWay: boolean): Promise<Reply> | undefined;
export function serveCall(node: LocalNode, envelope: Envelope, oneWay: boolean): Promise<Reply> | undefined {
  const request = openEnvelope(envelope);
  const { kind, key, command } = request;
  if (oneWay) {
    node.tellLocal(kind, key, command);
    return undefined;
  }
  assertOwner(node, request);
  return node.askLocal(kind, key, command).then((value) => replyOf(kind, value));
}

/**
 * Hands one fan-out batch from another node to the Session actors hosted here, the same way for the
 * unary FanOut call and for a batch on an Exchange stream. Throws InternalError when it has no event.
 */
export function serveFanOut(node: LocalNode, { event, sessionIds, source }: SessionBatch): void {
  if (!event) throw new InternalError({ cause: new Error('SessionBatch has no event') });
  node.deliverFanOut(sessionIds, event, source);
}

function assertOwner(node: LocalNode, request: OpenedEnvelope): void {
  const owner = node.ownerOf(request.kind, request.key);
  if (owner !== node.nodeId) {
    throw new WrongOwnerError(
      `${request.kind}:${request.key} is owned by ${owner} under view ${node.ringVersion} (sender view ${request.ringVersion})`,
    );
  }
}
