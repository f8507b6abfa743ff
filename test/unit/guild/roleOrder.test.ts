import assert from 'node:assert/strict';
import { orderRoles } from '../../../actors/guild/roleOrder.js';
import { aRole } from '../../contract/records.js';

const GUILD = '1000';
const roles = [
  aRole({ guild_id: GUILD, id: GUILD, position: 0 }),
  aRole({ guild_id: GUILD, id: 'a', position: 1 }),
  aRole({ guild_id: GUILD, id: 'b', position: 2 }),
  aRole({ guild_id: GUILD, id: 'c', position: 3 }),
];
const order = (result: { id: string; position: number }[]) => result.map((r) => `${r.id}${r.position}`).join(' ');

describe('orderRoles', () => {
  it('moves a role up above the role that held its new position', () => {
    assert.equal(order(orderRoles(roles, GUILD, [{ id: 'a', position: 3 }])), 'b1 c2 a3');
  });

  it('moves a role down below the role that held its new position', () => {
    assert.equal(order(orderRoles(roles, GUILD, [{ id: 'c', position: 1 }])), 'c1 a2 b3');
  });

  it('applies a full ordering as given', () => {
    const full = [
      { id: 'a', position: 2 },
      { id: 'b', position: 3 },
      { id: 'c', position: 1 },
    ];
    assert.equal(order(orderRoles(roles, GUILD, full)), 'c1 a2 b3');
  });

  it('keeps @everyone out of the ordering', () => {
    assert.equal(order(orderRoles(roles, GUILD, [{ id: GUILD, position: 3 }])), 'a1 b2 c3');
  });

  it('closes gaps in positions without changing the order', () => {
    const gappy = [aRole({ guild_id: GUILD, id: 'x', position: 4 }), aRole({ guild_id: GUILD, id: 'y', position: 9 })];
    assert.equal(order(orderRoles(gappy, GUILD, [])), 'x1 y2');
  });
});
