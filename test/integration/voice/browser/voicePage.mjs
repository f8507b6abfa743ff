// A Discord-style web voice client for headless Chromium tests, from the documented protocol (voice.md §1a, §4a; UD
// "WebRTC Connections"): op 4 over the real main gateway, then the voice gateway (op 0 with video and streams, op 2,
// op 1 "webrtc" with the SDP fragment and codecs, op 4's template turned into the remote answer, op 12 and op 5 with
// the browser's own SSRCs) and, per remote user op 5 / op 12 names, a receiving transceiver whose a=ssrc goes into
// the next answer (UD "Transceivers, SSRCs, and Remote Users"). window.chorus: join(), status() and leave().
/* global window, document, RTCPeerConnection, MediaStream, AudioContext, Audio, crypto, setInterval, clearInterval */
import {
  parseServerSdp,
  payloadTypeOf,
  rtxPayloadTypeOf,
  sdpFragment,
  sendingSsrcsOf,
  synthesizeAnswer,
} from './webClientSdp.mjs';
import { errors, joinOverGateway, jsonSocket, log, record } from './pageSignalling.mjs';

/** One call: the main gateway session, the voice socket, the peer connection and what the test measures. */
class VoiceCall {
  constructor(options) {
    this.options = options;
    this.remoteUsers = new Map(); // user id → the SSRCs op 5 / op 12 named for that user's audio and video
    this.receivers = new Map(); // user id → that user's receiving transceivers {audio, video}
    this.loudness = new Map(); // user id → loudness and dominant frequency of that user's track
    this.answerVersion = 1;
    this.negotiation = Promise.resolve();
    this.lastVoiceSeq = -1;
    this.timers = [];
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
    const track = direction === 'recvonly' ? 'audio' : this.toneTrack(this.options.toneHz ?? 440);
    this.transceiver = this.pc.addTransceiver(track, { direction });
    if (this.options.video === 'send') this.videoTransceiver = this.pc.addTransceiver(this.cameraTrack());
    if (this.options.video === 'recv')
      this.videoTransceiver = this.pc.addTransceiver('video', { direction: 'recvonly' });
    const offer = await this.pc.createOffer();
    await this.pc.setLocalDescription(offer);
    const fragment = sdpFragment(offer.sdp);
    const codecs = [{ name: 'opus', type: 'audio', priority: 1000, payload_type: payloadTypeOf(offer.sdp, 'opus') }];
    const vp8 = payloadTypeOf(offer.sdp, 'VP8');
    if (vp8 !== undefined) {
      const rtx = rtxPayloadTypeOf(offer.sdp, vp8);
      codecs.push({ name: 'VP8', type: 'video', priority: 1000, payload_type: vp8, rtx_payload_type: rtx ?? null });
    }
    this.voiceSocket.send(1, {
      protocol: 'webrtc',
      data: fragment,
      sdp: fragment,
      codecs,
      rtc_connection_id: crypto.randomUUID(),
    });
    const description = await this.voiceSocket.wait((m) => m.op === 4, 'op 4 Session Description');
    const server = parseServerSdp(description.d.sdp);
    await this.pc.setRemoteDescription({ type: 'answer', sdp: this.answer(offer.sdp, server) });
    // Users named before this answer get their transceivers now (renegotiation waits for the server's template).
    this.server = server;
    this.renegotiate();
    const local = this.pc.localDescription.sdp;
    this.audioSsrc = sendingSsrcsOf(local, this.transceiver.mid).ssrc;
    const video = this.videoTransceiver ? sendingSsrcsOf(local, this.videoTransceiver.mid) : { ssrc: 0, rtx: 0 };
    if (this.audioSsrc !== 0 || video.ssrc !== 0) {
      // The stream as UD's op 12 example spells it out, every field given.
      const stream = { type: 'video', rid: '100', ssrc: video.ssrc, rtx_ssrc: video.rtx, active: true, quality: 100 };
      const limits = { max_bitrate: 2_500_000, max_framerate: 15 };
      const resolution = { max_resolution: { type: 'fixed', width: 320, height: 240 } };
      const streams = video.ssrc === 0 ? [] : [{ ...stream, ...limits, ...resolution }];
      this.voiceSocket.send(12, { audio_ssrc: this.audioSsrc, video_ssrc: video.ssrc, rtx_ssrc: video.rtx, streams });
    }
    if (this.audioSsrc !== 0) this.voiceSocket.send(5, { speaking: 1, delay: 0, ssrc: this.audioSsrc });
    this.statsTimer = setInterval(() => void this.sampleStats(), 100);
    const { userId, sessionId, readySsrc, audioSsrc } = this;
    return { userId, sessionId, readySsrc, audioSsrc, videoSsrc: video.ssrc };
  }

  answer(offerSdp, server) {
    this.answerVersion += 1;
    const remotes = this.remotes();
    this.answeredRemotes = JSON.stringify(remotes);
    const sdp = synthesizeAnswer(offerSdp, server, remotes, this.answerVersion);
    record({ answer: sdp });
    return sdp;
  }

  /** A full-scale sine (440 Hz unless told) through WebAudio, as the track a user publishes. */
  toneTrack(hz) {
    const context = this.audioContext();
    const oscillator = context.createOscillator();
    oscillator.frequency.value = hz;
    const destination = context.createMediaStreamDestination();
    oscillator.connect(destination);
    oscillator.start();
    return destination.stream.getAudioTracks()[0];
  }

  /** A 320x240 canvas that changes colour every frame, captured at 15 fps, as a user's camera. */
  cameraTrack() {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 240;
    const painter = canvas.getContext('2d');
    let frame = 0;
    this.cameraTimer = setInterval(() => {
      frame += 1;
      painter.fillStyle = `hsl(${(frame * 17) % 360} 80% 50%)`;
      painter.fillRect(0, 0, canvas.width, canvas.height);
      painter.fillStyle = '#fff';
      painter.fillRect((frame * 7) % canvas.width, 100, 40, 40);
    }, 66);
    return canvas.captureStream(15).getVideoTracks()[0];
  }

  audioContext() {
    this.context ??= new AudioContext();
    void this.context.resume();
    return this.context;
  }

  /** Measures the loudness and dominant frequency of what a remote user's track plays, sampled every 50 ms. */
  listen(track, userId) {
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
    const spectrum = new Float32Array(analyser.frequencyBinCount);
    const heard = { last: 0, max: 0, peakHz: 0 };
    this.loudness.set(userId, heard);
    this.timers.push(
      setInterval(() => {
        analyser.getFloatTimeDomainData(samples);
        let sum = 0;
        for (const sample of samples) sum += sample * sample;
        heard.last = Math.sqrt(sum / samples.length);
        if (heard.last < heard.max) return;
        heard.max = heard.last;
        analyser.getFloatFrequencyData(spectrum);
        const peak = spectrum.indexOf(Math.max(...spectrum));
        heard.peakHz = Math.round((peak * context.sampleRate) / analyser.fftSize);
      }, 50),
    );
  }

  async sampleStats() {
    const stats = await this.pc.getStats();
    const found = { inbound: [], outbound: [], video: [] };
    stats.forEach((report) => {
      if (report.type === 'inbound-rtp' && report.kind === 'video') {
        const { ssrc, packetsReceived, framesDecoded, frameWidth, frameHeight } = report;
        found.video.push({ ssrc, packetsReceived, framesDecoded, frameWidth, frameHeight });
      }
      if (report.type === 'inbound-rtp' && report.kind === 'audio') {
        found.inbound.push({ ssrc: report.ssrc, packetsReceived: report.packetsReceived, mid: report.mid });
      } else if (report.type === 'outbound-rtp' && report.kind === 'audio') {
        found.outbound.push({ ssrc: report.ssrc, packetsSent: report.packetsSent });
      } else if (report.type === 'candidate-pair') {
        (found.pairs ??= []).push(
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
      const known = this.remoteUsers.get(userId) ?? { audio: 0, video: 0, rtx: 0 };
      const audio = message.op === 5 ? d.ssrc : d.audio_ssrc;
      if (typeof audio === 'number' && audio !== 0) known.audio = audio;
      if (message.op === 12) Object.assign(known, { video: d.video_ssrc ?? 0, rtx: d.rtx_ssrc ?? 0 });
      this.remoteUsers.set(userId, known);
      this.renegotiate();
    } else if (message.op === 13) {
      this.remoteUsers.delete(userId);
      this.renegotiate();
    }
  }

  /**
   * Which remote user's SSRCs go on which receiving section (UD "Transceivers, SSRCs, and Remote Users"): each user
   * present has a receiving transceiver per kind, its own, once the section has a mid.
   */
  remotes() {
    const remotes = {};
    for (const [userId, ssrcs] of this.remoteUsers) {
      const { audio, video } = this.receivers.get(userId) ?? {};
      if (audio?.mid != null && ssrcs.audio !== 0) remotes[audio.mid] = { userId, ssrc: ssrcs.audio };
      if (video?.mid != null && ssrcs.video !== 0)
        remotes[video.mid] = { userId, ssrc: ssrcs.video, rtxSsrc: ssrcs.rtx };
    }
    return remotes;
  }

  /** A receiving transceiver for each kind a present user sends and this call receives; true when one was added. */
  addReceivers() {
    let added = false;
    for (const [userId, ssrcs] of this.remoteUsers) {
      const receivers = this.receivers.get(userId) ?? {};
      this.receivers.set(userId, receivers);
      if (!receivers.audio && ssrcs.audio !== 0 && this.options.direction !== 'sendonly') {
        receivers.audio = this.pc.addTransceiver('audio', { direction: 'recvonly' });
        this.listen(receivers.audio.receiver.track, userId);
        added = true;
      }
      if (!receivers.video && ssrcs.video !== 0 && this.options.video === 'recv') {
        receivers.video = this.pc.addTransceiver('video', { direction: 'recvonly' });
        added = true;
      }
    }
    return added;
  }

  /** A new local offer and remote answer when users or their SSRCs changed since the last answer (none before op 4). */
  renegotiate() {
    this.negotiation = this.negotiation
      .then(async () => {
        if (!this.server) return;
        if (!this.addReceivers() && JSON.stringify(this.remotes()) === this.answeredRemotes) return;
        const offer = await this.pc.createOffer();
        await this.pc.setLocalDescription(offer);
        await this.pc.setRemoteDescription({ type: 'answer', sdp: this.answer(offer.sdp, this.server) });
      })
      .catch((error) => errors.push(`renegotiation: ${error.message}`));
  }

  status() {
    return {
      connectionState: this.pc?.connectionState,
      stats: this.stats,
      rms: { max: Math.max(0, ...[...this.loudness.values()].map((heard) => heard.max)) },
      heard: Object.fromEntries(this.loudness),
      remotes: this.remotes(),
      audioSsrc: this.audioSsrc,
      contextState: this.context?.state,
    };
  }

  leave() {
    const timers = [this.statsTimer, this.cameraTimer, this.voiceHeartbeat, this.heartbeat, ...this.timers];
    for (const timer of timers) clearInterval(timer);
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
