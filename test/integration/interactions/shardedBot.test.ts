import assert from 'node:assert/strict';
import { GatewayClient } from '../../support/GatewayClient.js';
import {
  guildCommand,
  interactionWorld,
  invoke,
  type ApiCommand,
  type InteractionWorld,
} from './interactionFixtures.js';

/** Discord's shard of a guild: (guild_id >> 22) % shard_count. */
const shardOf = (guildId: string, count: number): number => Number((BigInt(guildId) >> 22n) % BigInt(count));

describe('interactions to a sharded bot', function () {
  this.timeout(30_000);
  let w: InteractionWorld;
  let command: ApiCommand;

  before(async () => {
    w = await interactionWorld();
    command = await guildCommand(w, { name: 'where', description: 'Which shard hears it' });
  });
  after(async () => {
    await w?.stop();
  });

  it('delivers INTERACTION_CREATE on the session of the guild’s shard, not on shard 0', async () => {
    // A shard count that puts the guild off shard 0, so shard 0 hearing it would be the wrong shard.
    let count = 2;
    while (shardOf(w.world.guildId, count) === 0) count += 1;
    const guildShard = shardOf(w.world.guildId, count);
    const token = w.bot.token ?? '';
    const identified = (shard: number): Promise<{ client: GatewayClient }> =>
      GatewayClient.identified(w.server.gatewayUrl, token, { intents: 1, shard: [shard, count] });
    const { client: zero } = await identified(0);
    const { client: owner } = await identified(guildShard);
    await owner.waitForDispatch<{ id: string }>('GUILD_CREATE', (d) => d.id === w.world.guildId);

    const response = await invoke(w, { type: 2, data: { id: command.id, name: command.name, type: 1 } });
    assert.equal(response.status, 204);
    const created = await owner.waitForDispatch<{ guild_id: string; data: { name: string } }>(
      'INTERACTION_CREATE',
      (d) => d.data.name === 'where',
    );
    assert.equal(created.d.guild_id, w.world.guildId);
    // The invoker is told the outcome after the bot's sessions were sent the interaction.
    await w.user.waitForDispatch('INTERACTION_FAILURE', () => true, { timeoutMs: 10_000 });
    assert.deepEqual(zero.dispatches('INTERACTION_CREATE'), [], 'shard 0 does not hold the guild');
    await zero.close();
    await owner.close();
  });
});
