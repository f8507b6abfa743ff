import { Type } from '@sinclair/typebox';
import {
  boundedArray,
  boundedMap,
  choices,
  closedObject,
  exactly,
  integer,
  nullable,
  snowflake,
} from '../../../src/contract/wireTypes.js';

/** Each wireTypes helper's output next to the plain JSON Schema it must produce (TypeBox symbols aside). */
export function wireTypesShapes(): Record<string, [unknown, unknown]> {
  const item = Type.String({ maxLength: 4 });
  return {
    closedObject: [
      closedObject({ a: item, b: Type.Optional(integer()) }),
      {
        nullMeansAbsent: true,
        additionalProperties: false,
        type: 'object',
        required: ['a'],
        properties: { a: { type: 'string', maxLength: 4 }, b: { wire: 'integer' } },
      },
    ],
    boundedArray: [
      boundedArray(item, { maxItems: 3 }),
      { type: 'array', maxItems: 3, if: { type: 'array', maxItems: 3 }, then: { type: 'array', items: item } },
    ],
    exactly: [
      exactly(2, integer()),
      {
        type: 'array',
        maxItems: 2,
        minItems: 2,
        if: { type: 'array', maxItems: 2 },
        then: { type: 'array', items: { wire: 'integer' } },
      },
    ],
    boundedMap: [
      boundedMap(item, { maxProperties: 5, keys: Type.String({ maxLength: 2 }) }),
      {
        type: 'object',
        maxProperties: 5,
        if: { type: 'object', maxProperties: 5 },
        then: { type: 'object', propertyNames: { type: 'string', maxLength: 2 }, additionalProperties: item },
      },
    ],
    integerBounds: [integer({ minimum: 1 }), { wire: 'integer', allOf: [{ type: 'integer', minimum: 1 }] }],
    nullableWire: [
      nullable(integer({ minimum: 1 })),
      { wire: 'integer', allOf: [{ type: ['integer', 'null'], minimum: 1 }], orNull: true },
    ],
    nullableString: [nullable(item), { type: ['string', 'null'], maxLength: 4 }],
    numericChoices: [choices('number', [0, 1]), { wire: 'integer', enum: [0, 1] }],
    nullableChoices: [nullable(choices('string', ['a'])), { type: ['string', 'null'], enum: ['a', null] }],
    snowflake: [nullable(snowflake()), { wire: 'snowflake', orNull: true }],
  };
}
