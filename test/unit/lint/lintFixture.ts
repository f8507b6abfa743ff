import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Lints `code` as if it lived at `relativePath` under the real eslint.config.mjs and returns the messages of
 * `ruleId`. The file only exists in memory, so the type-aware rules (which need it in the TypeScript project) are
 * switched off; every other rule stays as configured.
 */
export async function lintFixture(relativePath: string, code: string, ruleId: string): Promise<Linter.LintMessage[]> {
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
  return result.messages.filter((message) => message.ruleId === ruleId);
}
