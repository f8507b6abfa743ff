// A Discord-style web voice client for headless Chromium tests, from the documented protocol (voice.md §1a, §4a; UD
// "WebRTC Connections"): op 4 over the real main gateway, then the voice gateway (op 0 with video and streams, op 2,
// op 1 "webrtc" with the SDP fragment and codecs, op 4's template turned into the remote answer, op 12 and op 5 with
// the browser's own SSRCs) and a remote a=ssrc added by renegotiating when op 5 / op 12 name another user's SSRC.
// The page exposes window.chorus for the test: join(), status() and leave().
/* global window, performance, WebSocket, RTCPeerConnection, MediaStream, AudioContext, Audio, crypto, setInterval, clearInterval */
import { payloadTypeOf, parseServerSdp, sdpFragment, sendingSsrcOf, synthesizeAnswer } from './webClientSdp.mjs';

const LOG_LIMIT = 300;
const log = [];
const errors = [];

function record(entry) {
  log.push({ at: Math.round(performance.now()), ...entry });
  if (log.length > LOG_LIMIT) log.shift();
}

/** A WebSocket whose JSON messages can be awaited by predicate (each message is seen by every waiter). */
function jsonSocket(url, name, onMessage) {
  const ws = new WebSocket(url);
  const waiters = [];
  const seen = [];
  const closed = new Promise((resolve) => {
    ws.addEventListener('close', (event) => {
      record({ socket: name, closed: event.code, reason: event.reason });
      resolve(event);
    });
  });
  ws.addEventListener('message', (event) => {
    const message = JSON.parse(event.data);
    seen.push(message);
    onMessage(message);
    for (const waiter of [...waiters]) {
      if (waiter.match(message)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    }
  });
  const opened = new Promise((resolve, reject) => {
    ws.addEventListener('open', () => resolve());
    ws.addEventListener('error', () => reject(new Error(`${name} socket failed to open: ${url}`)));
  });
  return {
    ws,
    opened,
    closed,
    send(op, d) {
      record({ socket: name, sent: op, d: op === 2 || op === 0 ? '(identify)' : d });
      ws.send(JSON.stringify({ op, d }));
    },
    /** The first message (already seen or yet to come) that matches; rejects if the socket closes first. */
    wait(match, what) {
      const found = seen.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        waiters.push({ match, resolve });
        void closed.then((event) => reject(new Error(`${name} closed ${event.code} "${event.reason}" before ${what}`)));
      });
    },
  };
}

/** Joins the voice channel over the main gateway: READY, op 4, then VOICE_STATE_UPDATE and VOICE_SERVER_UPDATE. */
async function joinOverGateway({ gatewayUrl, token, guildId, channelId }) {
  let lastSeq = null;
  let heartbeat;
  const gateway = jsonSocket(`${gatewayUrl}/?v=10&encoding=json`, 'gateway', (message) => {
    if (typeof message.s === 'number') lastSeq = message.s;
    if (message.op === 10) {
      heartbeat = setInterval(() => gateway.send(1, lastSeq), message.d.heartbeat_interval);
    }
  });
  await gateway.opened;
  await gateway.wait((m) => m.op === 10, 'Hello');
  gateway.send(2, { token, properties: { os: 'Linux', browser: 'Chrome', device: '' } });
  const ready = await gateway.wait((m) => m.t === 'READY', 'READY');
  const userId = ready.d.user.id;
  gateway.send(4, { guild_id: guildId, channel_id: channelId, self_mute: false, self_deaf: false, self_video: false });
  const state = await gateway.wait(
    (m) => m.t === 'VOICE_STATE_UPDATE' && m.d.user_id === userId && m.d.channel_id === channelId,
    'VOICE_STATE_UPDATE',
  );
  const server = await gateway.wait((m) => m.t === 'VOICE_SERVER_UPDATE', 'VOICE_SERVER_UPDATE');
  return { gateway, heartbeat, userId, sessionId: state.d.session_id, voice: server.d };
}

/** One call: the main gateway session, the voice socket, the peer connection and what the test measures. */
class VoiceCall {
  constructor(options) {
    this.options = options;
    this.remoteUsers = new Map(); // user id → the SSRC op 5 / op 12 named for that user's audio
    this.answerVersion = 1;
    this.negotiation = Promise.resolve();
    this.lastVoiceSeq = -1;
    this.rms = { last: 0, max: 0 };
  }

  async join() {
    const { gatewayUrl, token, guildId, channelId, direction, voiceScheme } = this.options;
    const joined = await joinOverGateway({ gatewayUrl, token, guildId, channelId });
    Object.assign(this, joined);
    const url = `${voiceScheme}://${joined.voice.endpoint}/?v=8`;
    this.voiceSocket = jsonSocket(url, 'voice', (message) => this.onVoiceMessage(message));
    await this.voiceSocket.opened;
    const hello = await this.voiceSocket.wait((m) => m.op === 8, 'op 8 Hello');
    // The web client heartbeats at min(heartbeat_interval, 5000) on v4 and above (UD "Heartbeating").
    this.voiceHeartbeat = setInterval(
      () => this.voiceSocket.send(3, { t: Date.now(), seq_ack: this.lastVoiceSeq }),
      Math.min(hello.d.heartbeat_interval, 5000),
    );
    this.voiceSocket.send(0, {
      server_id: guildId,
      user_id: this.userId,
      session_id: this.sessionId,
      token: joined.voice.token,
      video: true,
      streams: [{ type: 'video', rid: '100', quality: 100 }],
    });
    const ready = await this.voiceSocket.wait((m) => m.op === 2, 'op 2 Ready');
    this.readySsrc = ready.d.ssrc;

    this.pc = new RTCPeerConnection({ bundlePolicy: 'max-bundle', rtcpMuxPolicy: 'require' });
    this.pc.addEventListener('connectionstatechange', () => record({ pc: this.pc.connectionState }));
    this.pc.addEventListener('iceconnectionstatechange', () => record({ ice: this.pc.iceConnectionState }));
    this.pc.addEventListener('icecandidate', (event) => record({ localCandidate: event.candidate?.candidate ?? null }));
    const track = direction === 'recvonly' ? 'audio' : this.toneTrack();
    this.transceiver = this.pc.addTransceiver(track, { direction });
    this.listen(this.transceiver.receiver.track);
    const offer = await this.pc.createOffer();
    await this.pc.setLocalDescription(offer);
    const fragment = sdpFragment(offer.sdp);
    const opus = payloadTypeOf(offer.sdp, 'opus');
    this.voiceSocket.send(1, {
      protocol: 'webrtc',
      data: fragment,
      sdp: fragment,
      codecs: [{ name: 'opus', type: 'audio', priority: 1000, payload_type: opus }],
      rtc_connection_id: crypto.randomUUID(),
    });
    const description = await this.voiceSocket.wait((m) => m.op === 4, 'op 4 Session Description');
    this.server = parseServerSdp(description.d.sdp);
    await this.pc.setRemoteDescription({ type: 'answer', sdp: this.answer(offer.sdp) });
    const mid = this.transceiver.mid;
    this.audioSsrc = sendingSsrcOf(this.pc.localDescription.sdp, mid);
    if (this.audioSsrc !== 0) {
      this.voiceSocket.send(12, { audio_ssrc: this.audioSsrc, video_ssrc: 0, rtx_ssrc: 0, streams: [] });
      this.voiceSocket.send(5, { speaking: 1, delay: 0, ssrc: this.audioSsrc });
    }
    this.statsTimer = setInterval(() => void this.sampleStats(), 100);
    return { userId: this.userId, sessionId: this.sessionId, readySsrc: this.readySsrc, audioSsrc: this.audioSsrc };
  }

  answer(offerSdp) {
    this.answerVersion += 1;
    const remotes = this.remotes();
    this.answeredRemotes = JSON.stringify(remotes);
    const sdp = synthesizeAnswer(offerSdp, this.server, remotes, this.answerVersion);
    record({ answer: sdp });
    return sdp;
  }

  /** A 440 Hz full-scale sine through WebAudio, as the track a user publishes. */
  toneTrack() {
    const context = this.audioContext();
    const oscillator = context.createOscillator();
    oscillator.frequency.value = 440;
    const destination = context.createMediaStreamDestination();
    oscillator.connect(destination);
    oscillator.start();
    return destination.stream.getAudioTracks()[0];
  }

  audioContext() {
    this.context ??= new AudioContext();
    void this.context.resume();
    return this.context;
  }

  /** Measures the loudness of what the remote track plays, sampled every 50 ms. */
  listen(track) {
    const stream = new MediaStream([track]);
    // Chromium only pulls remote WebRTC audio into WebAudio when a media element also plays the stream.
    const element = new Audio();
    element.muted = true;
    element.srcObject = stream;
    void element.play().catch((error) => errors.push(`audio element: ${error.message}`));
    const context = this.audioContext();
    const analyser = context.createAnalyser();
    analyser.fftSize = 2048;
    context.createMediaStreamSource(stream).connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    this.rmsTimer = setInterval(() => {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const sample of samples) sum += sample * sample;
      const rms = Math.sqrt(sum / samples.length);
      this.rms = { last: rms, max: Math.max(this.rms.max, rms) };
    }, 50);
  }

  async sampleStats() {
    const stats = await this.pc.getStats();
    const found = { inbound: [], outbound: [] };
    stats.forEach((report) => {
      if (report.type === 'inbound-rtp' && report.kind === 'audio') {
        found.inbound.push({ ssrc: report.ssrc, packetsReceived: report.packetsReceived, mid: report.mid });
      } else if (report.type === 'outbound-rtp' && report.kind === 'audio') {
        found.outbound.push({ ssrc: report.ssrc, packetsSent: report.packetsSent });
      } else if (report.type === 'candidate-pair') {
        found.pairs ??= [];
        found.pairs.push(
          `${report.state}${report.nominated ? ' nominated' : ''} sent ${report.requestsSent}/${report.responsesReceived}`,
        );
      } else if (report.type === 'transport') {
        found.dtls = report.dtlsState;
      }
    });
    this.stats = found;
  }

  onVoiceMessage(message) {
    if (typeof message.seq === 'number') this.lastVoiceSeq = message.seq;
    if (message.op !== 6) record({ socket: 'voice', op: message.op, d: message.d });
    const d = message.d ?? {};
    const userId = d.user_id;
    if (userId === undefined || userId === this.userId) return;
    if (message.op === 5 || message.op === 12) {
      const ssrc = message.op === 5 ? d.ssrc : d.audio_ssrc;
      if (typeof ssrc === 'number' && ssrc !== 0) this.remoteUsers.set(userId, ssrc);
      this.renegotiate();
    } else if (message.op === 13) {
      this.remoteUsers.delete(userId);
      this.renegotiate();
    }
  }

  /**
   * Which remote user's SSRC goes on which receiving section (UD "Transceivers, SSRCs, and Remote Users"). This
   * page has one audio section, which is all these tests need: each call here has one other speaker.
   */
  remotes() {
    const mid = this.transceiver?.mid;
    const first = [...this.remoteUsers][0];
    if (mid == null || first === undefined || this.options.direction === 'sendonly') return {};
    return { [mid]: { userId: first[0], ssrc: first[1] } };
  }

  /** A new local offer and remote answer when the remote SSRCs changed since the last answer (op 4 not yet: none). */
  renegotiate() {
    this.negotiation = this.negotiation
      .then(async () => {
        if (!this.server || JSON.stringify(this.remotes()) === this.answeredRemotes) return;
        const offer = await this.pc.createOffer();
        await this.pc.setLocalDescription(offer);
        await this.pc.setRemoteDescription({ type: 'answer', sdp: this.answer(offer.sdp) });
      })
      .catch((error) => errors.push(`renegotiation: ${error.message}`));
  }

  status() {
    return {
      connectionState: this.pc?.connectionState,
      stats: this.stats,
      rms: this.rms,
      remotes: this.remotes(),
      audioSsrc: this.audioSsrc,
      contextState: this.context?.state,
    };
  }

  leave() {
    for (const timer of [this.statsTimer, this.rmsTimer, this.voiceHeartbeat, this.heartbeat]) clearInterval(timer);
    this.pc?.close();
    this.voiceSocket?.ws.close(1000);
    this.gateway?.ws.close(1000);
    void this.context?.close();
  }
}

let call;
window.chorus = {
  async join(options) {
    call = new VoiceCall(options);
    return call.join();
  },
  status() {
    return { ...(call ? call.status() : {}), errors, log };
  },
  leave() {
    call?.leave();
  },
};
window.chorusLoaded = true;
