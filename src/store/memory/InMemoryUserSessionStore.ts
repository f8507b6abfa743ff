import type { UserSessionEntry, UserSessionStore } from '../../../actors/runtime/ports/userSessionStore.js';
import { InMemorySessionIndex } from './InMemorySessionIndex.js';

/** Users' gateway sessions in this process (embedded mode, unit tests): the semantics of RedisUserSessionStore. */
export class InMemoryUserSessionStore extends InMemorySessionIndex<UserSessionEntry> implements UserSessionStore {}
