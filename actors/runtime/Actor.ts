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

  /** Whether idle passivation may stop this actor now (a session with a live socket may not). */
  canPassivate(): boolean {
    return true;
  }

  /** Runs once when the actor stops (after passivation or an explicit stop). */
  deactivate(): Promise<void> {
    return Promise.resolve();
  }
}
