import OpusScript from 'opusscript';

/** Discord voice audio: 48 kHz stereo opus in 20 ms frames (960 samples per channel). */
const RATE = 48_000;
const FRAME_SAMPLES = 960;
const CHANNELS = 2;

/** `count` opus frames of a continuous sine (`amplitude` of full scale), encoded with opusscript. */
export function opusToneFrames(count: number, frequencyHz = 440, amplitude = 0.5): Buffer[] {
  const encoder = new OpusScript(RATE, CHANNELS, OpusScript.Application.AUDIO);
  try {
    return Array.from({ length: count }, (_, frame) => {
      const pcm = Buffer.alloc(FRAME_SAMPLES * CHANNELS * 2);
      for (let i = 0; i < FRAME_SAMPLES; i++) {
        const t = (frame * FRAME_SAMPLES + i) / RATE;
        const value = Math.round(Math.sin(2 * Math.PI * frequencyHz * t) * amplitude * 32767);
        pcm.writeInt16LE(value, i * 4);
        pcm.writeInt16LE(value, i * 4 + 2);
      }
      return Buffer.from(encoder.encode(pcm, FRAME_SAMPLES));
    });
  } finally {
    encoder.delete();
  }
}

/** Decodes opus frames in order and gives each frame's RMS as a fraction of full scale. */
export class OpusLoudness {
  private readonly decoder = new OpusScript(RATE, CHANNELS, OpusScript.Application.AUDIO);

  rmsOf(frame: Buffer): number {
    const pcm = this.decoder.decode(frame);
    const samples = pcm.length / 2;
    let sum = 0;
    for (let i = 0; i < samples; i++) sum += (pcm.readInt16LE(i * 2) / 32768) ** 2;
    return samples === 0 ? 0 : Math.sqrt(sum / samples);
  }

  close(): void {
    this.decoder.delete();
  }
}
