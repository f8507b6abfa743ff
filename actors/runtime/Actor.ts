/**
 * Base of every actor: state is private and changes only inside a turn. `activate` loads state
 * from storage before the first turn; `handle` serves one message; idle actors are passivated.
 */
// C and R are the actor's proto command and reply; subclasses bind them (the host types calls by them).
export abstract class Actor<C, R> {
  /**
   * Loads the actor's state; runs as the first turn, so messages queue behind it. `first` is the
   * message that caused the activation: an actor may skip loading for one it serves without state.
   */
  // The base loads nothing; subclasses that look at the first message override this.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  activate(_first?: C): Promise<void> {
    return Promise.resolve();
  }

  /** Serves one message. Mutations are written through to storage before the reply. */
  abstract handle(command: C): Promise<R>;

  /**
   * Serves `command` at once, outside the mailbox, when it needs no wait at all (a fan-out's dispatch to an
   * idle session): no turn and no promise per message. The host calls it only while the actor is active and
   * its mailbox idle, so nothing queued is overtaken. False, having changed nothing: send it as a turn.
   */
  // The base serves nothing at once; an actor with such a message overrides this.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  serveNow(_command: C): boolean {
    return false;
  }

  /** Whether idle passivation may stop this actor now (a session with a live socket may not). */
  canPassivate(): boolean {
    return true;
  }

  /** Runs once when the actor stops (after passivation or an explicit stop). */
  deactivate(): Promise<void> {
    return Promise.resolve();
  }
}
