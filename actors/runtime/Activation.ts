import type { ActivationContext } from './activationContext.js';
import type { Actor } from './Actor.js';
import type { ActorKind, CommandOf, ReplyOf } from './ActorKind.js';
import type { Mailbox } from './Mailbox.js';

export type AnyActor = Actor<CommandOf<ActorKind>, ReplyOf<ActorKind>>;
/** An activation's mailbox: its turns and failed tells are the host's, told which activation they are for. */
export type ActivationMailbox = Mailbox<CommandOf<ActorKind>, ReplyOf<ActorKind>, Activation>;

/**
 * One activation of an actor on this host: the actor, its context and mailbox, where it is in its
 * lifecycle, and its lease. The mailbox's owner, so the host serves every mailbox with one turn function
 * and one failure handler instead of closures per activation (issue 15 §3).
 */
export class Activation {
  state: 'activating' | 'active' | 'stopping' = 'activating';
  readonly mailbox: ActivationMailbox;

  constructor(
    /** The context this activation was built with; its self timers go with it. */
    readonly ctx: ActivationContext,
    readonly actor: AnyActor,
    /** The lease epoch this activation holds (cluster mode), set before `activate()`. */
    readonly lease: { epoch: number | undefined },
    public lastActiveMs: number,
    mailboxOf: (activation: Activation) => ActivationMailbox,
  ) {
    this.mailbox = mailboxOf(this);
  }

  get kind(): ActorKind {
    return this.ctx.kind;
  }

  get key(): string {
    return this.ctx.key;
  }

  get id(): string {
    return this.ctx.id;
  }
}
