import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const arrowRule = 'import-x/no-restricted-paths';

/**
 * Lints `code` as if it lived at `relativePath` under the real eslint.config.mjs. The file only exists in memory,
 * so the type-aware rules (which need it in the TypeScript project) are switched off; the arrow rules stay as configured.
 */
async function arrowErrorsFor(relativePath: string, code: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: repoRoot,
    overrideConfig: [
      {
        ...tseslint.configs.disableTypeChecked,
        languageOptions: { parserOptions: { projectService: false, project: null } },
      },
    ],
  });
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, relativePath) });
  assert.ok(result, 'ESLint returns one result for the text');
  const fatal = result.messages.filter((message) => message.fatal === true);
  assert.deepEqual(fatal, [], 'the fixture parses');
  return result.messages.filter((message) => message.ruleId === arrowRule).map((message) => message.message);
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

  it('accepts an edge route importing the cluster router and the domain', async () => {
    const errors = await arrowErrorsFor(
      'src/http/routes/arrowFixture.ts',
      "import { ActorKind } from '../../../cluster/ActorSystem.js';\nimport { ForbiddenError } from '../../domain/errors.js';\nexport const kind = ActorKind.Guild;\nexport const error = ForbiddenError;\n",
    );
    assert.deepEqual(errors, []);
  });
});
