// Child process for discordjsVoice.test.ts: two @discordjs/voice connections (the real library, its own TLS,
// UDP, encryption and receiver) joined through Chorus gateway sockets by a minimal voice adapter. It must be its
// own process because NODE_EXTRA_CA_CERTS (trusting the node's self-signed voice cert) is read at start only.
// Prints one JSON line: what the receiving connection got.
import { Readable } from 'node:stream';
import {
  EndBehaviorType,
  StreamType,
  VoiceConnectionStatus,
  createAudioPlayer,
  createAudioResource,
  entersState,
  joinVoiceChannel,
  type DiscordGatewayAdapterCreator,
  type VoiceConnection,
} from '@discordjs/voice';
import { GatewayClient } from '../../support/GatewayClient.js';

interface Args {
  gatewayUrl: string;
  guildId: string;
  channelId: string;
  senderToken: string;
  receiverToken: string;
  frames: string[]; // base64
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args;

/** An adapter as discord.js's Guild.voiceAdapterCreator behaves: op 4 out, the two voice dispatches in. */
function adapterFor(client: GatewayClient, userId: string): DiscordGatewayAdapterCreator {
  return (methods) => {
    let answered = false;
    // The two dispatches that answer the first op 4, handed over as discord.js's ClientVoiceManager does.
    const forward = async (): Promise<void> => {
      const state = await client.waitForDispatch<{ user_id: string }>(
        'VOICE_STATE_UPDATE',
        (d) => d.user_id === userId,
      );
      const server = await client.waitForDispatch<{ token: string; guild_id: string; endpoint: string }>(
        'VOICE_SERVER_UPDATE',
      );
      methods.onVoiceStateUpdate(state.d as never);
      methods.onVoiceServerUpdate(server.d);
    };
    return {
      sendPayload: (payload: { op: number; d: unknown }) => {
        client.send(payload.op, payload.d);
        if (!answered) {
          answered = true;
          void forward();
        }
        return true;
      },
      destroy: () => undefined,
    };
  };
}

async function join(token: string, group: string): Promise<{ connection: VoiceConnection; userId: string }> {
  const { client, ready } = await GatewayClient.identified(args.gatewayUrl, token);
  const userId = (ready['user'] as { id: string }).id;
  const connection = joinVoiceChannel({
    guildId: args.guildId,
    channelId: args.channelId,
    adapterCreator: adapterFor(client, userId),
    selfDeaf: false,
    group,
  });
  await entersState(connection, VoiceConnectionStatus.Ready, 10_000);
  return { connection, userId };
}

const sender = await join(args.senderToken, 'sender');
const receiver = await join(args.receiverToken, 'receiver');
const received: string[] = [];
let speakingStarted = false;
receiver.connection.receiver.speaking.on('start', (userId) => {
  if (userId === sender.userId) speakingStarted = true;
});
const stream = receiver.connection.receiver.subscribe(sender.userId, {
  end: { behavior: EndBehaviorType.AfterSilence, duration: 1_000 },
});
stream.on('data', (packet: Buffer) => {
  received.push(packet.toString('base64'));
});
const player = createAudioPlayer();
sender.connection.subscribe(player);
const frames = args.frames.map((frame) => Buffer.from(frame, 'base64'));
player.play(createAudioResource(Readable.from(frames, { objectMode: true }), { inputType: StreamType.Opus }));
await new Promise((resolve) => stream.once('end', resolve));
process.stdout.write(`${JSON.stringify({ received, speakingStarted })}\n`);
sender.connection.destroy();
receiver.connection.destroy();
process.exit(0);
