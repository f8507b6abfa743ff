import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import type { HashRing } from '../../../cluster/ring/HashRing.js';
import { GetChannel, type ChannelCommand, type ChannelReply } from '../../../proto/gen/chorus/v1/channel.js';
import { UnknownEntityError, WrongOwnerError } from '../../../src/domain/errors.js';
import { keyOwnedBy, startCluster, stopCluster, type TestNode } from './transportHarness.js';

const GUILD = 'g1';
const getChannel: ChannelCommand = { command: { $case: 'getChannel', getChannel: GetChannel.fromPartial({}) } };

/** The node an echo channel answered from. */
function ranOn(reply: ChannelReply): string {
  if (reply.reply?.$case !== 'json') return assert.fail(`not a json reply: ${reply.reply?.$case ?? 'none'}`);
  return (JSON.parse(reply.reply.json.json) as { node: string }).node;
}

/**
 * Three real ActorSystems over gRPC with echo channel actors, each placing channels through a lookup of
 * one shared table of channel → guild (as each node reads the channel's record): a guild channel runs
 * on its guild's node whichever node asks, a DM on its own key's, and an unknown one nowhere.
 */
describe('cluster: routing a channel by its guild (ActorSystem over gRPC, echo actors)', function () {
  this.timeout(20_000);
  let nodes: TestNode[];
  let ring: HashRing;
  const guildOf = new Map<string, string | null>();
  const lookups: string[] = [];

  before(async () => {
    ({ nodes, ring } = await startCluster(3));
    for (const node of nodes) {
      node.system.bindChannelHomes((channelId) => {
        lookups.push(`${node.id} ${channelId}`);
        return Promise.resolve(guildOf.get(channelId));
      });
    }
  });
  after(async () => {
    await stopCluster(nodes);
  });

  const guildNode = (): string => ring.ownerOf(`guild:${GUILD}`);

  it("runs a guild channel on its guild's node from whichever node asks, looking it up once per node", async () => {
    // A channel its own key would place on another node than its guild.
    const channelId = keyOwnedBy(ring, 'channel', nodes.find((node) => node.id !== guildNode())?.id ?? '', 'c');
    guildOf.set(channelId, GUILD);
    for (let round = 0; round < 2; round += 1) {
      for (const node of nodes)
        assert.equal(ranOn(await node.system.ask('channel', channelId, getChannel)), guildNode());
    }
    const mine = lookups.filter((entry) => entry.endsWith(` ${channelId}`));
    assert.equal(mine.length, nodes.length, `one lookup per node: ${mine.join(', ')}`);
  });

  it('runs a DM on the owner of its own key', async () => {
    const dmId = keyOwnedBy(ring, 'channel', guildNode(), 'dm', 1);
    guildOf.set(dmId, null);
    const elsewhere = nodes.find((node) => node.id !== guildNode()) as TestNode;
    assert.equal(ranOn(await elsewhere.system.ask('channel', dmId, getChannel)), ring.ownerOf(`channel:${dmId}`));
  });

  it('answers 404 Unknown Channel for a channel the store does not know, activating it nowhere', async () => {
    for (const node of nodes) {
      await assert.rejects(node.system.ask('channel', 'nowhere', getChannel), (error: unknown) => {
        assert.ok(error instanceof UnknownEntityError && error.entity === 'channel');
        return true;
      });
    }
    for (const node of nodes) assert.ok(!node.host.activeKeys('channel').includes('nowhere'), node.id);
  });

  it("refuses a peer's call for a guild channel once its lookup shows the guild lives elsewhere", async () => {
    const channelId = keyOwnedBy(ring, 'channel', nodes.find((node) => node.id !== guildNode())?.id ?? '', 'peer');
    guildOf.set(channelId, GUILD);
    const ownKeyNode = nodes.find((node) => node.id === ring.ownerOf(`channel:${channelId}`)) as TestNode;
    await assert.rejects(ownKeyNode.system.askLocal('channel', channelId, getChannel), WrongOwnerError);
    const owner = nodes.find((node) => node.id === guildNode()) as TestNode;
    assert.equal(ranOn(await owner.system.askLocal('channel', channelId, getChannel)), guildNode());
  });
});
