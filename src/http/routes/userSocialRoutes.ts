import type { Router } from '@koa/router';
import { BadRequestError, UnknownEntityError, ValidationError } from '../../domain/errors.js';
import { Right } from '../../domain/rights.js';
import { compareSnowflakes, isSnowflake } from '../../domain/snowflake.js';
import { NOTE_MAX_LENGTH } from '../../contract/discordLimits.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { bodyFor, requireCaller, requireRight, sendReply, snowflakeParam, validBody } from '../routeKit.js';
import { askUser, peopleRoute, refuseBots, selfRoute } from './userRouteKit.js';

const invalidRecipients = (): BadRequestError => new BadRequestError('Invalid Recipient(s)', 50_033);

/** The note body `{note}` (no spec schema): a string or null. */
function noteBody(ctx: EdgeContext): string {
  const body = (ctx.request as { body?: unknown }).body;
  const note = typeof body === 'object' && body !== null ? (body as { note?: unknown }).note : undefined;
  if (note !== undefined && note !== null && typeof note !== 'string') {
    throw ValidationError.field('note', 'BASE_TYPE_STRING', 'Must be a string.');
  }
  // The User actor refuses a longer note too; checked here so a huge one never travels to it.
  if (typeof note === 'string' && note.length > NOTE_MAX_LENGTH) {
    throw ValidationError.field('note', 'BASE_TYPE_MAX_LENGTH', `Must be ${NOTE_MAX_LENGTH} or fewer in length.`);
  }
  return JSON.stringify({ note: note ?? null });
}

/**
 * Bots open DMs with `{recipient_id}` (discord.js `user.createDM()`), user clients with
 * `{recipients: [...]}`: the first becomes the second before validation.
 */
function acceptRecipientId(ctx: EdgeContext): void {
  const body = (ctx.request as { body?: unknown }).body;
  if (typeof body !== 'object' || body === null) return;
  const form = body as { recipient_id?: unknown; recipients?: unknown };
  if (form.recipients === undefined && form.recipient_id !== undefined) form.recipients = [form.recipient_id];
}

/** True when a DM create body asks for a group DM: several recipients, or OAuth2 access_tokens. */
function opensGroupDm(ctx: EdgeContext): boolean {
  const body = (ctx.request as { body?: unknown }).body;
  if (typeof body !== 'object' || body === null) return false;
  const form = body as { recipients?: unknown; access_tokens?: unknown };
  return (Array.isArray(form.recipients) && form.recipients.length > 1) || form.access_tokens !== undefined;
}

/** Relationships and notes (people only: bots get 403 20001), and DM channels of the caller. */
export function userSocialRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  router.get(
    '/users/@me/relationships',
    peopleRoute(deps, (_ctx, caller) => ({ $case: 'getRelationships', getRelationships: { caller } })),
  );
  router.post(
    '/users/@me/relationships',
    peopleRoute(deps, (ctx, caller) => ({
      $case: 'addRelationship',
      addRelationship: { caller, body: bodyFor(ctx, 'RelationshipPostSchema') },
    })),
  );
  router.put(
    '/users/@me/relationships/:id',
    peopleRoute(deps, (ctx, caller) => ({
      $case: 'putRelationship',
      putRelationship: { caller, userId: snowflakeParam(ctx, 'id'), body: bodyFor(ctx, 'RelationshipPutSchema') },
    })),
  );
  router.delete(
    '/users/@me/relationships/:id',
    peopleRoute(deps, (ctx, caller) => ({
      $case: 'deleteRelationship',
      deleteRelationship: { caller, userId: snowflakeParam(ctx, 'id'), body: '' },
    })),
  );
  router.get(
    '/users/@me/notes/:id',
    peopleRoute(deps, (ctx, caller) => ({
      $case: 'getNote',
      getNote: { caller, userId: snowflakeParam(ctx, 'id'), body: '' },
    })),
  );
  router.put(
    '/users/@me/notes/:id',
    peopleRoute(deps, (ctx, caller) => ({
      $case: 'putNote',
      putNote: { caller, userId: snowflakeParam(ctx, 'id'), body: noteBody(ctx) },
    })),
  );
  router.get(
    '/users/@me/channels',
    selfRoute(deps, (_ctx, caller) => ({ $case: 'listDms', listDms: { caller } })),
  );
  router.post('/users/@me/channels', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    acceptRecipientId(ctx);
    // A bot may open a 1:1 DM, as on Discord, but not a group DM (those are for people).
    if (opensGroupDm(ctx)) refuseBots(caller);
    const form = validBody(ctx, 'DmChannelCreateSchema');
    form.recipients.forEach((id, index) => {
      if (!isSnowflake(id))
        throw ValidationError.field(
          `recipients.${index}`,
          'NUMBER_TYPE_COERCE',
          `Value ${JSON.stringify(id)} is not snowflake.`,
        );
    });
    const direct = form.recipients.length === 1 ? form.recipients[0] : undefined;
    requireRight(
      caller,
      direct === undefined ? Right.CREATE_DM_GROUPS : Right.CREATE_DMS,
      direct === undefined ? 'CREATE_DM_GROUPS' : 'CREATE_DMS',
    );
    // A 1:1 DM is found or created by the lower id of the pair, so both users get one channel.
    const owner = direct !== undefined && compareSnowflakes(direct, caller.userId) < 0 ? direct : caller.userId;
    const reply = await askUser(deps, owner, { $case: 'openDm', openDm: { caller, body: JSON.stringify(form) } }).catch(
      (error: unknown) => {
        // The recipient's own actor answered that it has no account: the recipient is invalid.
        if (owner !== caller.userId && error instanceof UnknownEntityError) throw invalidRecipients();
        throw error;
      },
    );
    sendReply(ctx, reply);
  });
}
