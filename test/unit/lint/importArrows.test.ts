import assert from 'node:assert/strict';
import { lintFixture } from './lintFixture.js';

const arrowRule = 'import-x/no-restricted-paths';

async function arrowErrorsFor(relativePath: string, code: string): Promise<string[]> {
  return (await lintFixture(relativePath, code, arrowRule)).map((message) => message.message);
}

describe('import arrows lint', function () {
  this.timeout(60_000);

  it('reports an actor importing the cluster router', async () => {
    const errors = await arrowErrorsFor(
      'actors/guild/arrowFixture.ts',
      "import { ActorSystem } from '../../cluster/ActorSystem.js';\nexport const system: typeof ActorSystem = ActorSystem;\n",
    );
    assert.equal(errors.length, 1);
    assert.match(errors[0] ?? '', /cluster\/ActorSystem\.js/);
  });

  it('reports an edge route importing the actor runtime', async () => {
    const errors = await arrowErrorsFor(
      'src/http/routes/arrowFixture.ts',
      "import { ActorKind } from '../../../actors/runtime/ActorKind.js';\nexport const kind = ActorKind.Guild;\n",
    );
    assert.equal(errors.length, 1);
  });

  it('reports the contract importing the edge', async () => {
    const errors = await arrowErrorsFor(
      'src/contract/arrowFixture.ts',
      "import { validBody } from '../http/routeKit.js';\nexport const read = validBody;\n",
    );
    assert.equal(errors.length, 1);
  });

  it('accepts an edge route importing the cluster router and the domain', async () => {
    const errors = await arrowErrorsFor(
      'src/http/routes/arrowFixture.ts',
      "import { ActorKind } from '../../../cluster/ActorSystem.js';\nimport { ForbiddenError } from '../../domain/errors.js';\nexport const kind = ActorKind.Guild;\nexport const error = ForbiddenError;\n",
    );
    assert.deepEqual(errors, []);
  });
});
