/** One sample of the Prometheus text format: name, labels, value. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses the exposition text (comments skipped); throws on a line that is neither. */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = LINE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key = '', value = ''] of (match[2] ?? '').matchAll(LABEL)) labels[key] = value;
    samples.push({ name: match[1] ?? '', labels, value: Number(match[3]) });
  }
  return samples;
}

/** Samples of `name` whose labels include every pair of `labels`. */
export function pick(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return samples.filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
}

/** The sum of the values of `pick(...)`. */
export function total(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  return pick(samples, name, labels).reduce((sum, sample) => sum + sample.value, 0);
}
