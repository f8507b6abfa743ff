import { ValidationError } from '../../src/domain/errors.js';

/**
 * One case of a ts-proto oneof: `$case` names the case, and the payload sits under a field of the
 * same name (`{ $case: 'getGuild', getGuild: GetGuild }`).
 */
export interface OneofCase {
  readonly $case: string;
}

/** The payload of case `K` of the oneof `Command`. */
export type PayloadOf<Command extends OneofCase, K extends Command['$case']> =
  Extract<Command, { $case: K }> extends infer Case ? Case[K & keyof Case] : never;

/** The handler of one command: the actor's context first, the command's payload second. */
export type Handler<Ctx, Payload, Reply> = (ctx: Ctx, payload: Payload) => Reply | Promise<Reply>;

/**
 * Exactly one handler per case of `Command`: a missing case is a compile error, and so is an extra
 * key written in a table's literal. A table assembled from parts spreads other tables (see
 * `withContext`), whose keys are cases by their own type.
 */
export type HandlerTable<Command extends OneofCase, Ctx, Reply> = {
  readonly [K in Command['$case']]: Handler<Ctx, PayloadOf<Command, K>, Reply>;
};

/**
 * The same handlers, reached from another context: `enter` turns the outer context into theirs
 * (e.g. an actor into its loaded state) before each call.
 */
export function withContext<Command extends OneofCase, Inner, Outer, Reply>(
  table: HandlerTable<Command, Inner, Reply>,
  enter: (outer: Outer) => Inner | Promise<Inner>,
): HandlerTable<Command, Outer, Reply> {
  const entries = Object.entries<Handler<Inner, never, Reply>>(table).map(([name, handler]) => {
    // Not an async function: a context already at hand goes to the handler in the same call, without a frame
    // awaiting `enter` and another resolving with the handler's promise (a message create runs through
    // several such layers). A throw still comes back as a rejection.
    const lifted = (outer: Outer, payload: never): Promise<Reply> => {
      try {
        const inner = enter(outer);
        return inner instanceof Promise
          ? inner.then((entered: Inner) => handler(entered, payload))
          : Promise.resolve(handler(inner, payload));
      } catch (error) {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- what was thrown, as an async function rejects
        return Promise.reject(error);
      }
    };
    return [name, lifted] as const;
  });
  // Same keys, each handler taking the same payload as before: only the context type changed.
  return Object.fromEntries(entries) as unknown as HandlerTable<Command, Outer, Reply>;
}

/**
 * The one answer to a command no handler serves: an empty oneof (a newer peer's case is dropped by
 * the decoder as an unknown field, leaving `command` undefined) or a case this build does not know.
 * Also the exhaustiveness guard of the codebase: `assertNever(value)` only compiles where `value` was
 * narrowed to `never`.
 */
export function assertNever(command: never): never {
  const name = (command as OneofCase | undefined)?.$case;
  if (name === undefined) throw new ValidationError({ _errors: [{ code: 'EMPTY_COMMAND', message: 'No command' }] });
  throw new ValidationError({ _errors: [{ code: 'UNKNOWN_COMMAND', message: `Unknown command ${name}` }] });
}

/**
 * Runs the handler of `command`'s case with its payload, the only place a payload is taken out of a
 * oneof generically. Sound because ts-proto always stores a case's payload under the key named by
 * its `$case`, and `HandlerTable` pairs that key with the handler of exactly that payload type. The
 * lookup takes own keys only, so a peer's `$case` such as `toString` finds no inherited function.
 */
export function dispatch<Command extends OneofCase, Ctx, Reply>(
  table: HandlerTable<Command, Ctx, Reply>,
  ctx: Ctx,
  command: Command | undefined,
): Promise<Reply> {
  // Not an async function (one frame and one resolution less per command), so throws become rejections here.
  try {
    const name = command?.$case;
    const handlers = table as Readonly<Record<string, Handler<Ctx, unknown, Reply> | undefined>>;
    const handler = name !== undefined && Object.hasOwn(handlers, name) ? handlers[name] : undefined;
    if (command === undefined || name === undefined || handler === undefined) return assertNever(command as never);
    const reply = handler(ctx, (command as unknown as Readonly<Record<string, unknown>>)[name]);
    return reply instanceof Promise ? reply : Promise.resolve(reply);
  } catch (error) {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- what was thrown, as an async function rejects
    return Promise.reject(error);
  }
}
