import assert from 'node:assert/strict';
import { startHarness, type GuildHarness } from './specKit.js';

/**
 * Every endpoint of the spec's "Endpoints" section, as written there (trailing slashes kept), with
 * its path parameters filled with a snowflake-like id (codes with a code-like string).
 */
const SPEC_ENDPOINTS = `
GET /ping/
GET /updates/
POST /track/
POST /science/
GET /policies/instance/
GET /policies/instance/limits/
GET /policies/instance/domains/
GET /policies/stats/
POST /stop/
GET /scheduled-maintenances/upcoming_json/scheduled-maintenances/upcoming.json
GET /voice/regions/
GET /teams/
GET /stage-instances/
GET /sticker-packs/
GET /stickers/{sticker_id}/
GET /outbound-promotions/
GET /partners/{guild_id}/requirements/
GET /store/published-listings/skus/{id}
GET /store/published-listings/skus/{sku_id}/subscription-plans/
GET /store/published-listings/applications/{id}
GET /store/published-listings/applications/{id}/subscription-plans/
GET /oauth2/tokens/
GET /oauth2/authorize/
POST /oauth2/authorize/
POST /read-states/ack-bulk/
GET /invites/{code}
POST /invites/{code}
DELETE /invites/{code}
GET /users/@me/
PATCH /users/@me/
GET /users/@me/settings/
PATCH /users/@me/settings/
GET /users/@me/relationships/
POST /users/@me/relationships/
PUT /users/@me/relationships/{id}
DELETE /users/@me/relationships/{id}
GET /users/@me/notes/{id}
PUT /users/@me/notes/{id}
POST /users/@me/mfa/totp/enable/
POST /users/@me/mfa/totp/disable/
POST /users/@me/mfa/codes/
POST /users/@me/mfa/codes-verification/
GET /users/@me/library/
GET /users/@me/guilds/
DELETE /users/@me/guilds/{guild_id}
GET /users/@me/guilds/premium/subscription-slots/
GET /users/@me/guilds/{guild_id}/settings/
PATCH /users/@me/guilds/{guild_id}/settings/
GET /users/@me/entitlements/gifts
GET /users/@me/email-settings/
POST /users/@me/disable/
POST /users/@me/devices/
POST /users/@me/delete/
GET /users/@me/connections/
GET /users/@me/channels/
POST /users/@me/channels/
GET /users/@me/billing/subscriptions/
GET /users/@me/billing/payment-sources/
GET /users/@me/billing/country-code/
GET /users/@me/applications/{app_id}/entitlements/
GET /users/@me/affinities/users/
GET /users/@me/affinities/guilds/
GET /users/@me/activities/statistics/applications/
GET /users/{id}/
GET /users/{id}/relationships/
GET /users/{id}/profile/
PATCH /users/{id}/profile/
POST /guilds/
GET /guilds/templates/{code}
POST /guilds/templates/{code}
GET /guilds/{guild_id}/
PATCH /guilds/{guild_id}/
GET /guilds/{guild_id}/widget.png/
GET /guilds/{guild_id}/widget.json/
GET /guilds/{guild_id}/widget/
PATCH /guilds/{guild_id}/widget/
GET /guilds/{guild_id}/welcome-screen/
PATCH /guilds/{guild_id}/welcome-screen/
GET /guilds/{guild_id}/webhooks/
PATCH /guilds/{guild_id}/voice-states/{user_id}/
GET /guilds/{guild_id}/vanity-url/
PATCH /guilds/{guild_id}/vanity-url/
GET /guilds/{guild_id}/templates/
POST /guilds/{guild_id}/templates/
DELETE /guilds/{guild_id}/templates/{code}
PUT /guilds/{guild_id}/templates/{code}
PATCH /guilds/{guild_id}/templates/{code}
GET /guilds/{guild_id}/stickers/
POST /guilds/{guild_id}/stickers/
GET /guilds/{guild_id}/stickers/{sticker_id}
PATCH /guilds/{guild_id}/stickers/{sticker_id}
DELETE /guilds/{guild_id}/stickers/{sticker_id}
GET /guilds/{guild_id}/roles/
POST /guilds/{guild_id}/roles/
PATCH /guilds/{guild_id}/roles/
GET /guilds/{guild_id}/roles/{role_id}/
PATCH /guilds/{guild_id}/roles/{role_id}/
DELETE /guilds/{guild_id}/roles/{role_id}/
GET /guilds/{guild_id}/regions/
GET /guilds/{guild_id}/prune/
POST /guilds/{guild_id}/prune/
PATCH /guilds/{guild_id}/profile/{member_id}
GET /guilds/{guild_id}/premium/subscriptions
GET /guilds/{guild_id}/messages/search/
GET /guilds/{guild_id}/members/
GET /guilds/{guild_id}/members/{member_id}/
PUT /guilds/{guild_id}/members/{member_id}/
PATCH /guilds/{guild_id}/members/{member_id}/
DELETE /guilds/{guild_id}/members/{member_id}/
PATCH /guilds/{guild_id}/members/{member_id}/nick/
PUT /guilds/{guild_id}/members/{member_id}/roles/{role_id}/
DELETE /guilds/{guild_id}/members/{member_id}/roles/{role_id}/
GET /guilds/{guild_id}/member-verification/
GET /guilds/{guild_id}/invites/
GET /guilds/{guild_id}/integrations/
`;

/** Routes Discord clients call that the spec leaves out (docs/rest.md §8.4, §8.5, §8.11). */
const CLIENT_ENDPOINTS = `
GET /experiments
GET /apex/experiments
GET /scheduled-maintenances/upcoming.json
GET /guilds/{guild_id}/preview
GET /guilds/{guild_id}/roles/member-counts
GET /guilds/{guild_id}/emojis
POST /guilds/{guild_id}/emojis
GET /guilds/{guild_id}/emojis/{emoji_id}
PATCH /guilds/{guild_id}/emojis/{emoji_id}
DELETE /guilds/{guild_id}/emojis/{emoji_id}
GET /applications/{application_id}/commands
POST /applications/{application_id}/commands
PUT /applications/{application_id}/commands
GET /applications/{application_id}/commands/{command_id}
PATCH /applications/{application_id}/commands/{command_id}
DELETE /applications/{application_id}/commands/{command_id}
GET /applications/{application_id}/guilds/{guild_id}/commands
POST /applications/{application_id}/guilds/{guild_id}/commands
PUT /applications/{application_id}/guilds/{guild_id}/commands
GET /applications/{application_id}/guilds/{guild_id}/commands/{command_id}
PATCH /applications/{application_id}/guilds/{guild_id}/commands/{command_id}
DELETE /applications/{application_id}/guilds/{guild_id}/commands/{command_id}
GET /channels/{channel_id}/webhooks
POST /channels/{channel_id}/webhooks
GET /webhooks/{webhook_id}
PATCH /webhooks/{webhook_id}
DELETE /webhooks/{webhook_id}
GET /webhooks/{webhook_id}/{token}
PATCH /webhooks/{webhook_id}/{token}
DELETE /webhooks/{webhook_id}/{token}
POST /webhooks/{webhook_id}/{token}
GET /webhooks/{webhook_id}/{token}/messages/{message_id}
PATCH /webhooks/{webhook_id}/{token}/messages/{message_id}
DELETE /webhooks/{webhook_id}/{token}/messages/{message_id}
`;

function endpoints(table: string): [string, string][] {
  return table
    .trim()
    .split('\n')
    .map((line) => {
      const [method = '', path = ''] = line.trim().split(' ');
      return [method, path.replace(/\{code\}/g, 'SomeCode123').replace(/\{[a-z_]+\}/g, '1234567890123456')];
    });
}

describe('the spec’s endpoint list', function () {
  this.timeout(60_000);
  let h: GuildHarness;

  before(async () => {
    h = await startHarness();
  });

  after(async () => {
    await h.stop();
  });

  it('mounts every endpoint (no "404: Not Found" route miss) under /api, /api/v9 and /api/v10', async () => {
    const missing: string[] = [];
    for (const prefix of ['/api', '/api/v9', '/api/v10']) {
      for (const [method, path] of [...endpoints(SPEC_ENDPOINTS), ...endpoints(CLIENT_ENDPOINTS)]) {
        // No token: a mounted route answers 401, a public one its document, an unmounted one 404 code 0.
        if (method === 'POST' && path === '/stop/') continue; // a valid call would stop the node; 401 is checked below
        const response = await fetch(`${h.node.url}${prefix}${path}`, {
          method,
          headers: { 'content-type': 'application/json' },
          ...(method === 'GET' ? {} : { body: '{}' }),
        });
        const body = (await response.json().catch(() => ({}))) as { message?: string };
        if (response.status === 405 || (response.status === 404 && body.message === '404: Not Found')) {
          missing.push(`${method} ${prefix}${path} → ${response.status}`);
        }
      }
    }
    assert.deepEqual(missing, []);
    const stop = await fetch(`${h.api}/stop/`, { method: 'POST' });
    assert.equal(stop.status, 401);
  });
});
