import assert from 'node:assert/strict';
import { lintFixture } from './lintFixture.js';

const fixture = 'actors/channel/castFixture.ts';

describe('parsed JSON casts lint', function () {
  this.timeout(60_000);

  it('reports an actor casting parsed JSON to a body type', async () => {
    const errors = await lintFixture(
      fixture,
      "interface Body { content: string }\nexport const body = JSON.parse('{}') as Body;\n",
      'no-restricted-syntax',
    );
    assert.equal(errors.length, 1);
    assert.match(errors[0]?.message ?? '', /bodyOf/);
  });

  it('reports the cast even when it goes through unknown', async () => {
    const errors = await lintFixture(
      fixture,
      "export const body = JSON.parse('{}') as unknown as { id: string };\n",
      'no-restricted-syntax',
    );
    assert.equal(errors.length, 1);
  });

  it('accepts parsed JSON typed unknown in an actor, and casts outside actors', async () => {
    const inActor = await lintFixture(
      fixture,
      "export const value: unknown = JSON.parse('{}');\n",
      'no-restricted-syntax',
    );
    const atEdge = await lintFixture(
      'src/http/routes/castFixture.ts',
      "export const body = JSON.parse('{}') as object;\n",
      'no-restricted-syntax',
    );
    assert.deepEqual([inActor, atEdge], [[], []]);
  });
});
