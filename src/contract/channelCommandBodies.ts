import { Type, type Static } from '@sinclair/typebox';
import { MessageAcknowledgeSchema } from './message.js';
import { snowflake } from './wireTypes.js';

/**
 * Bodies of Channel actor commands that the edge composes itself rather than forwards as a client sent them:
 * typed here once, so the edge builds them and the actor reads them (bodyOf) with the same static type.
 */

/** list_pins: the paginated pins route's query (pinRoutes.ts); `{}` for the plain pins list. */
export const PinsQuery = Type.Object({
  paginated: Type.Optional(Type.Boolean()),
  /** ISO timestamp: pins strictly older than it. */
  before: Type.Optional(Type.String()),
  limit: Type.Optional(Type.Number()),
});
/** The list_pins query. */
export type PinsQuery = Static<typeof PinsQuery>;

/** acknowledge: the validated MessageAcknowledgeSchema body plus the message id of the path. */
export const AcknowledgeBody = Type.Object({
  ...MessageAcknowledgeSchema.properties,
  message_id: Type.Optional(snowflake()),
});
/** The acknowledge body. */
export type AcknowledgeBody = Static<typeof AcknowledgeBody>;
