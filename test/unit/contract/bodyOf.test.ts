import assert from 'node:assert/strict';
import { ValidationError } from '../../../src/domain/errors.js';
import { bodyOf } from '../../../src/contract/bodyOf.js';
import { MessageCreateSchema, schemas } from '../../../src/contract/index.js';
import { validate } from '../../../src/contract/validate.js';

describe('bodyOf', () => {
  it('reads the text the edge validated as the value validate() left (wire forms converted, unknown fields gone)', () => {
    const sent = { content: 'hi', nonce: 5, flags: '4', sticker_ids: [123], extra: true };
    const validated = validate('MessageCreateSchema', structuredClone(sent));
    const body = bodyOf(MessageCreateSchema, JSON.stringify(validated));
    assert.deepEqual(body, { content: 'hi', nonce: 5, flags: 4, sticker_ids: ['123'] });
  });

  it('reads an empty text as an empty body', () => {
    assert.deepEqual(bodyOf(schemas.MessageEditSchema, ''), {});
  });

  it('answers 50035 for text that is not JSON', () => {
    assert.throws(
      () => bodyOf(MessageCreateSchema, '{'),
      (error: unknown) => error instanceof ValidationError && JSON.stringify(error.fieldErrors).includes('BAD_JSON'),
    );
  });
});
