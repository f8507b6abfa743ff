import assert from 'node:assert/strict';
import { parseMentions, resolveMentions } from '../../../actors/channel/mentions.js';

describe('parseMentions', () => {
  it('finds user mentions in both forms, once each', () => {
    const parsed = parseMentions('hi <@123> and <@!456> and <@123> again');
    assert.deepEqual(parsed.userIds, ['123', '456']);
  });

  it('finds role mentions apart from user mentions', () => {
    const parsed = parseMentions('<@&789> <@1>');
    assert.deepEqual(parsed.roleIds, ['789']);
    assert.deepEqual(parsed.userIds, ['1']);
  });

  it('detects @everyone and @here', () => {
    assert.equal(parseMentions('hey @everyone').everyone, true);
    assert.equal(parseMentions('@here now').everyone, true);
    assert.equal(parseMentions('everyone here').everyone, false);
  });

  it('ignores malformed mentions', () => {
    const parsed = parseMentions('<@abc> <@> <@&> @ everyone');
    assert.deepEqual(parsed, { userIds: [], roleIds: [], everyone: false });
  });
});

describe('resolveMentions', () => {
  const parsed = parseMentions('<@1> <@2> <@&9> @everyone');
  const guild = { inGuild: true, canMentionEveryone: true };

  it('keeps every parsed mention without allowed_mentions', () => {
    assert.deepEqual(resolveMentions(parsed, undefined, guild), {
      userIds: ['1', '2'],
      roleIds: ['9'],
      everyone: true,
    });
  });

  it('drops everything for an empty parse list', () => {
    assert.deepEqual(resolveMentions(parsed, { parse: [] }, guild), { userIds: [], roleIds: [], everyone: false });
  });

  it('keeps only listed users and roles when their kind is not parsed', () => {
    const resolved = resolveMentions(parsed, { users: ['2'], roles: ['9'] }, guild);
    assert.deepEqual(resolved, { userIds: ['2'], roleIds: ['9'], everyone: false });
  });

  it('requires MENTION_EVERYONE for @everyone', () => {
    assert.equal(resolveMentions(parsed, undefined, { inGuild: true, canMentionEveryone: false }).everyone, false);
  });

  it('has no role mentions or @everyone in DMs', () => {
    const resolved = resolveMentions(parsed, undefined, { inGuild: false, canMentionEveryone: true });
    assert.deepEqual(resolved.roleIds, []);
    assert.equal(resolved.everyone, false);
  });

  it('mentions the replied-to author by default and not when replied_user is false', () => {
    const reply = { ...guild, repliedUserId: '7' };
    assert.deepEqual(resolveMentions(parseMentions('ok'), undefined, reply).userIds, ['7']);
    assert.deepEqual(resolveMentions(parseMentions('ok'), { replied_user: false }, reply).userIds, []);
    assert.deepEqual(resolveMentions(parseMentions('ok'), { parse: [], replied_user: true }, reply).userIds, ['7']);
  });
});
