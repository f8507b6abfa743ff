// Opus helpers for the discord.js voice tests: a generated tone as @discordjs/voice would send it, and the check
// that what a receiver got decodes back to sound (not silence, not garbage).
import OpusScript from 'opusscript';

const SAMPLE_RATE = 48_000;
const CHANNELS = 2;
/** 20 ms at 48 kHz: the frame size Discord voice uses. */
const FRAME_SAMPLES = 960;
/** A sine at this amplitude has an RMS near 7000, far above the 1000 a decoded frame must exceed. */
const AMPLITUDE = 10_000;

/** `count` consecutive 20 ms opus frames of a stereo sine at `hz`. */
export function toneFrames(count: number, hz = 440): Buffer[] {
  const encoder = new OpusScript(SAMPLE_RATE, CHANNELS, OpusScript.Application.AUDIO);
  const frames: Buffer[] = [];
  for (let frame = 0; frame < count; frame++) {
    const pcm = Buffer.alloc(FRAME_SAMPLES * CHANNELS * 2);
    for (let i = 0; i < FRAME_SAMPLES; i++) {
      const t = (frame * FRAME_SAMPLES + i) / SAMPLE_RATE;
      const sample = Math.round(AMPLITUDE * Math.sin(2 * Math.PI * hz * t));
      pcm.writeInt16LE(sample, i * 4);
      pcm.writeInt16LE(sample, i * 4 + 2);
    }
    frames.push(Buffer.from(encoder.encode(pcm, FRAME_SAMPLES)));
  }
  encoder.delete();
  return frames;
}

/** Decodes opus packets in order (one decoder, as a player would) and returns each frame's RMS. */
export function decodedRms(packets: Buffer[]): number[] {
  const decoder = new OpusScript(SAMPLE_RATE, CHANNELS, OpusScript.Application.AUDIO);
  const levels = packets.map((packet) => {
    try {
      const pcm = decoder.decode(packet);
      let sum = 0;
      const samples = pcm.length / 2;
      for (let i = 0; i < samples; i++) sum += pcm.readInt16LE(i * 2) ** 2;
      return samples === 0 ? 0 : Math.sqrt(sum / samples);
    } catch {
      return 0; // a packet that does not decode counts as silence
    }
  });
  decoder.delete();
  return levels;
}
