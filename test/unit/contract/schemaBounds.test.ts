import assert from 'node:assert/strict';
import { schemas, type SchemaName } from '../../../src/contract/index.js';
import { accepts, isBoundedPattern, walkSchema, type SchemaNode } from './schemaWalk.js';

const NAMES = Object.keys(schemas) as SchemaName[];
const NODES: readonly SchemaNode[] = NAMES.flatMap((name) => walkSchema(name, schemas[name]));

/**
 * Strings with no maxLength, on purpose. Every other string a body can carry has one, so nothing an
 * actor stores from a body is larger than its schema says.
 */
const UNBOUNDED_STRINGS: ReadonlySet<string> = new Set([
  // Base64 data URI images: the body cap bounds them, and imageUploads stores each as a blob whose
  // record keeps only the hash (see imageData() in wireTypes.ts).
  'UserModifySchema.avatar',
  'UserModifySchema.banner',
  'UserProfileModifySchema.banner',
  'GuildCreateSchema.icon',
  'GuildUpdateSchema.banner',
  'GuildUpdateSchema.splash',
  'GuildUpdateSchema.discovery_splash',
  'GuildUpdateSchema.icon',
  'GuildTemplateCreateSchema.avatar',
  'EmojiCreateSchema.image',
  'RoleModifySchema.icon',
  'RoleCreateSchema.icon',
  'MemberChangeProfileSchema.banner',
  'WebhookCreateSchema.avatar',
  'WebhookModifySchema.avatar',
  'ApplicationModifySchema.icon',
  'BotModifySchema.avatar',
  // The JSON part of a multipart body: the body parser has already read it, and nothing stores it.
  'MessageCreateSchema.payload_json',
  'MessageEditSchema.payload_json',
  'WebhookExecuteSchema.payload_json',
]);

/** Values of any JSON type: only in gateway payloads (4096 bytes at most) that nothing stores. */
const UNCONSTRAINED_VALUES: ReadonlySet<string> = new Set([
  'IdentifySchema.client_state.guild_hashes',
  'IdentifySchema.client_state.guild_versions',
  'IdentifySchema.clientState.guildHashes',
  'IdentifySchema.clientState.guildVersions',
  'LazyRequestSchema.thread_member_lists.[]',
]);

function isBoundedString(node: SchemaNode): boolean {
  const schema = node.schema;
  return (
    typeof schema['maxLength'] === 'number' || Array.isArray(schema['enum']) || isBoundedPattern(schema['pattern'])
  );
}

function offenders(test: (node: SchemaNode) => boolean): string[] {
  return NODES.filter(test).map((node) => node.path);
}

describe('schema bounds', () => {
  it('gives every array a maxItems', () => {
    assert.deepEqual(
      offenders((node) => accepts(node.schema, 'array') && typeof node.schema['maxItems'] !== 'number'),
      [],
    );
  });

  it('gives every map (an object of arbitrary keys) a maxProperties and a key schema', () => {
    const maps = NODES.filter((node) => node.path.endsWith('.{}')).map((node) => node.path.slice(0, -3));
    assert.ok(maps.includes('UserGuildSettingsSchema.channel_overrides'));
    const unbounded = maps.filter((path) => {
      const map = NODES.find((node) => node.path === path)?.schema ?? {};
      return typeof map['maxProperties'] !== 'number' || !NODES.some((node) => node.path === `${path}.{key}`);
    });
    assert.deepEqual(unbounded, []);
  });

  it('drops unknown properties of every object with named properties (additionalProperties: false)', () => {
    const open = offenders((node) => {
      if (node.schema['properties'] === undefined) return false;
      const extra: unknown = node.schema['additionalProperties'];
      // A map that also names some keys (telemetry headers) bounds its other keys like any map.
      return extra !== false && !(typeof extra === 'object' && typeof node.schema['maxProperties'] === 'number');
    });
    assert.deepEqual(open, []);
  });

  it('gives every string a maxLength, a choice list or a bounded pattern, unless allow-listed', () => {
    const unbounded = offenders((node) => accepts(node.schema, 'string') && !isBoundedString(node));
    assert.deepEqual(
      unbounded.filter((path) => !UNBOUNDED_STRINGS.has(path)),
      [],
    );
  });

  it('leaves a value unconstrained only where allow-listed', () => {
    const any = offenders((node) => Object.keys(node.schema).length === 0);
    assert.deepEqual(
      any.filter((path) => !UNCONSTRAINED_VALUES.has(path)),
      [],
    );
  });

  it('lists no allow-list entry that is not an unbounded node (the lists stay current)', () => {
    const paths = new Set(NODES.map((node) => node.path));
    for (const path of [...UNBOUNDED_STRINGS, ...UNCONSTRAINED_VALUES]) assert.ok(paths.has(path), path);
    for (const path of UNBOUNDED_STRINGS) {
      const node = NODES.find((candidate) => candidate.path === path);
      assert.ok(node && !isBoundedString(node), `${path} is bounded now: drop it from the list`);
    }
  });
});
