/** Builds the world a benchmark needs on a running Chorus node, over its public API only. */
export interface BenchWorld {
  readonly owner: { token: string; id: string };
  readonly guildId: string;
  readonly channelIds: string[];
  readonly inviteCode: string;
}

async function call<T>(base: string, method: string, path: string, token?: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== undefined) headers.authorization = token;
  const response = await fetch(`${base}/api/v10${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

let userCounter = 0;

/** Registers a user; returns its token and id. */
export async function registerUser(base: string, prefix: string): Promise<{ token: string; id: string }> {
  userCounter += 1;
  const username = `${prefix}${userCounter}`;
  const { token } = await call<{ token: string }>(base, 'POST', '/auth/register', undefined, {
    username,
    password: 'bench password',
    email: `${username}.${process.pid}@bench.test`,
    consent: true,
  });
  const me = await call<{ id: string }>(base, 'GET', '/users/@me', token);
  return { token, id: me.id };
}

/** A guild with `channels` text channels and a reusable invite. */
export async function createWorld(base: string, channels: number): Promise<BenchWorld> {
  const owner = await registerUser(base, 'owner');
  const guild = await call<{ id: string }>(base, 'POST', '/guilds', owner.token, { name: 'Bench' });
  const existing = await call<{ id: string; type: number }[]>(base, 'GET', `/guilds/${guild.id}/channels`, owner.token);
  const channelIds = existing.filter((c) => c.type === 0).map((c) => c.id);
  while (channelIds.length < channels) {
    const channel = await call<{ id: string }>(base, 'POST', `/guilds/${guild.id}/channels`, owner.token, {
      name: `bench-${channelIds.length}`,
      type: 0,
    });
    channelIds.push(channel.id);
  }
  const invite = await call<{ code: string }>(base, 'POST', `/channels/${channelIds[0] ?? ''}/invites`, owner.token, {
    max_age: 0,
    max_uses: 0,
  });
  return { owner, guildId: guild.id, channelIds, inviteCode: invite.code };
}

/** Registers `count` members who join the world's guild, `parallel` at a time. */
export async function addMembers(
  base: string,
  world: BenchWorld,
  count: number,
  parallel = 16,
): Promise<{ token: string; id: string }[]> {
  const members: { token: string; id: string }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        next += 1;
        const member = await registerUser(base, 'member');
        await call(base, 'POST', `/invites/${world.inviteCode}`, member.token, {});
        members.push(member);
      }
    }),
  );
  return members;
}
