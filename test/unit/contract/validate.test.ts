import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import formatsPlugin from 'ajv-formats';
import { ValidationError } from '../../../src/domain/errors.js';
import { schemas, type RegisterBody, type SchemaName } from '../../../src/contract/index.js';
import { validate, validatorFor } from '../../../src/contract/validate.js';
import { addWireKeywords } from '../../../src/contract/wireForms.js';
import { expectInvalid, leafTree } from './expectInvalid.js';

const NAMES = Object.keys(schemas) as SchemaName[];
const MODEL_TYPE_CONVERT = leafTree('', 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
const REQUIRED = { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' };

describe('validate', () => {
  describe('schemas', () => {
    it('compiles every schema', () => {
      for (const name of NAMES) assert.equal(typeof validatorFor(name), 'function', name);
    });

    it('uses only keywords and formats a strict ajv knows (no typos such as maxlength)', () => {
      const strict = new Ajv({ strict: true, allowUnionTypes: true });
      addWireKeywords(strict);
      formatsPlugin.default(strict, ['email', 'date-time']);
      for (const name of NAMES) assert.doesNotThrow(() => strict.compile(schemas[name]), name);
    });

    it('compiles each schema once and reuses it', () => {
      assert.equal(validatorFor('RegisterSchema'), validatorFor('RegisterSchema'));
    });

    it('names the aliases after the schemas they repeat', () => {
      assert.equal(schemas.RoleCreateSchema, schemas.RoleModifySchema);
      assert.equal(schemas.GuildChannelPositionSchema, schemas.ChannelReorderSchema);
      assert.equal(schemas.TemplateModifySchema, schemas.TemplateCreateSchema);
    });
  });

  describe('when the body is valid', () => {
    it('returns the same body, typed', () => {
      const body = { consent: true, username: 'alice', unknown_extra: 1 };
      const typed: RegisterBody = validate('RegisterSchema', body);
      assert.equal(typed, body);
      assert.equal(typed.username, 'alice');
    });

    it('fills no defaults and converts only what Discord does (a numeric string of an integer field)', () => {
      assert.deepEqual(validate('PruneSchema', { days: 7 }), { days: 7 });
      assert.deepEqual(validate('PruneSchema', { days: '7' }), { days: 7 });
      assert.deepEqual(validate('PruneSchema', { days: 7, compute_prune_count: null }), { days: 7 });
      assert.deepEqual(
        expectInvalid('PruneSchema', { days: true }),
        leafTree('days', 'NUMBER_TYPE_COERCE', 'Value "true" is not int.'),
      );
      assert.deepEqual(
        expectInvalid('PruneSchema', { days: 7, compute_prune_count: 'true' }),
        leafTree('compute_prune_count', 'BASE_TYPE_BOOLEAN', 'Must be either true or false.'),
      );
    });
  });

  describe('when the body is invalid', () => {
    it('throws ValidationError carrying Discord code 50035 and the errors tree', () => {
      assert.throws(
        () => validate('LoginSchema', { login: 'a' }),
        (error: unknown) =>
          error instanceof ValidationError &&
          error.httpStatus === 400 &&
          JSON.stringify(error.toDiscordJson()) ===
            JSON.stringify({
              code: 50035,
              message: 'Invalid Form Body',
              errors: { password: { _errors: [REQUIRED] } },
            }),
      );
    });

    it('reports every failing field at once', () => {
      assert.deepEqual(expectInvalid('LoginSchema', {}), {
        login: { _errors: [REQUIRED] },
        password: { _errors: [REQUIRED] },
      });
    });

    it('nests a deep error under the body path, array indices as string keys', () => {
      const body = {
        content: 'hi',
        embeds: [{ fields: [{ name: 'a', value: 'b' }, { value: 'c' }] }],
      };
      assert.deepEqual(expectInvalid('MessageCreateSchema', body), {
        embeds: { '0': { fields: { '1': { name: { _errors: [REQUIRED] } } } } },
      });
    });

    it('keeps errors of sibling indices apart', () => {
      const body = { embeds: [{ title: 5 }, {}, { footer: {} }] };
      assert.deepEqual(expectInvalid('MessageEditSchema', body), {
        embeds: {
          '0': { title: { _errors: [{ code: 'BASE_TYPE_STRING', message: 'Must be a string.' }] } },
          '2': { footer: { text: { _errors: [REQUIRED] } } },
        },
      });
    });

    it('puts errors of an array-root body under "0", "1", ...', () => {
      const body = [{ id: '1', position: 1 }, { position: 2 }, { id: '3', position: 'top' }];
      assert.deepEqual(expectInvalid('RolePositionUpdateSchema', body), {
        '1': { id: { _errors: [REQUIRED] } },
        '2': { position: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "top" is not int.' }] } },
      });
      assert.deepEqual(expectInvalid('ChannelReorderSchema', [{ position: 0 }]), {
        '0': { id: { _errors: [REQUIRED] } },
      });
    });

    it('rejects a non-array body where the root is an array', () => {
      assert.deepEqual(
        expectInvalid('ChannelReorderSchema', { id: '1' }),
        leafTree('', 'BASE_TYPE_ARRAY', 'Must be an array.'),
      );
    });
  });

  describe('when an object is expected but the body is not one', () => {
    for (const [title, body] of [
      ['null', null],
      ['an array', [{ login: 'a', password: 'b' }]],
      ['a string', '{"login":"a"}'],
      ['a number', 42],
      ['absent', undefined],
    ] as const) {
      it(`puts MODEL_TYPE_CONVERT at the root for ${title}`, () => {
        assert.deepEqual(expectInvalid('LoginSchema', body), MODEL_TYPE_CONVERT);
      });
    }

    it('puts MODEL_TYPE_CONVERT at a nested object that is not one', () => {
      assert.deepEqual(
        expectInvalid('MessageCreateSchema', { message_reference: 'abc' }),
        leafTree('message_reference', 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType'),
      );
    });
  });
});
