import { SpanKind } from '@opentelemetry/api';
import { spanAround, startSpan, type TraceContext } from '../../src/tracing/traceScope.js';
import type { ActorKind, CommandOf } from './ActorKind.js';

type Command = CommandOf<ActorKind>;

/**
 * Runs an activation's turn for its mailbox: a letter sent inside a trace (an HTTP request's span,
 * a remote call's, another actor's turn) runs in an INTERNAL span `<kind> <command>`, child of that
 * context, so what the turn asks or tells joins the same trace. A letter without one (tracing off, a
 * timer, a gateway op) runs the turn directly: no span, nothing allocated.
 */
export function turnInSpan<R>(
  kind: ActorKind,
  key: string,
  command: Command,
  parent: TraceContext | undefined,
  turn: (command: Command) => Promise<R>,
): Promise<R> {
  if (parent === undefined) return turn(command);
  const name = command.command?.$case ?? 'none';
  const span = startSpan(`${kind} ${name}`, SpanKind.INTERNAL, parent, {
    'chorus.actor.kind': kind,
    'chorus.actor.key': key,
    'chorus.actor.command': name,
  });
  if (!span) return turn(command);
  return spanAround(parent, span, () => turn(command));
}
