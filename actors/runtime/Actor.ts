/**
 * Base of every actor: state is private and changes only inside a turn. `activate` loads state
 * from storage before the first turn; `handle` serves one message; idle actors are passivated.
 */
// C and R are the actor's proto command and reply; subclasses bind them (the host types calls by them).
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
export abstract class Actor<C, R> {
  /** Loads the actor's state; runs as the first turn, so messages queue behind it. */
  activate(): Promise<void> {
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
