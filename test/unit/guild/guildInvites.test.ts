import assert from 'node:assert/strict';
import { inviteSpent } from '../../../actors/guild/guildInvites.js';
import { inviteExpiresAt } from '../../../actors/guild/guildJson.js';
import { anInvite } from '../../contract/records.js';

const CREATED = '2026-01-01T00:00:00.000Z';
const at = (iso: string) => Date.parse(iso);

describe('invite lifetime', () => {
  it('expires max_age seconds after creation, and never with max_age 0', () => {
    const daily = anInvite({ guild_id: '1', created_at: CREATED, max_age: 86_400 });
    assert.equal(inviteExpiresAt(daily), '2026-01-02T00:00:00.000Z');
    assert.equal(inviteSpent(daily, at('2026-01-01T23:59:59.999Z')), false);
    assert.equal(inviteSpent(daily, at('2026-01-02T00:00:00.000Z')), true);
    const forever = anInvite({ guild_id: '1', created_at: CREATED, max_age: 0 });
    assert.equal(inviteExpiresAt(forever), null);
    assert.equal(inviteSpent(forever, at('2099-01-01T00:00:00.000Z')), false);
  });

  it('is spent once its uses reach max_uses, and never with max_uses 0', () => {
    const once = anInvite({ guild_id: '1', created_at: CREATED, max_age: 0, max_uses: 1, uses: 1 });
    assert.equal(inviteSpent(once, at(CREATED)), true);
    const unlimited = anInvite({ guild_id: '1', created_at: CREATED, max_age: 0, max_uses: 0, uses: 500 });
    assert.equal(inviteSpent(unlimited, at(CREATED)), false);
  });
});
